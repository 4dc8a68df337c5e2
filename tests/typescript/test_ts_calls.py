"""TS front-end: calls, resolved callees, receivers, arguments as Values, spans."""

from __future__ import annotations

from topo.analyzers.ir import DefinitionKind, Language, ValueKind
from tests.typescript.ts_helpers import PATH, call, parse_ts

AGENT = """
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { AMIClient } from '@memrail/sdk';
import { z } from 'zod';

const client = new OpenAI();

function helper(x: string) { return x; }

class Agent extends Base {
  private llm = new Anthropic();
  constructor(private ami: AMIClient) {
    super();
    this.openai = new OpenAI({ apiKey: 'k' });
  }
  async run(text: string) {
    await this.llm.messages.create({ model: 'claude' });
    await this.openai.responses.create({ model: 'gpt' });
    await this.ami.decide({ decisionPoint: 'p' });
    this.fallback();
    helper(text);
    client.chat.completions.create({});
    new OpenAI().embeddings.create({});
    unknownThing.create();
    const Intent = z.enum(['refund', 'other']);
    Intent.parse(text);
    fetch('https://x', { method: 'POST' });
  }
  fallback() {}
}
"""


def _creates(ir) -> dict[str | None, str | None]:
    return {c.receiver: c.callee for c in ir.calls if c.name == "create"}


def test_callee_through_default_import_and_instances() -> None:
    creates = _creates(parse_ts(AGENT))
    assert creates["client.chat.completions"] == "openai.default.chat.completions.create"
    assert creates["this.llm.messages"] == "@anthropic-ai/sdk.default.messages.create"
    assert creates["this.openai.responses"] == "openai.default.responses.create"
    assert creates["unknownThing"] is None


def test_new_expression_is_a_call_naming_its_class() -> None:
    ir = parse_ts(AGENT)
    news = [c for c in ir.calls if c.name == "OpenAI"]
    assert [c.callee for c in news] == ["openai.default"] * 3
    chained = [c for c in ir.calls if c.receiver == "OpenAI().embeddings"]
    assert chained[0].callee == "openai.default.embeddings.create"
    assert chained[0].id.endswith("+1")       # starts where `new OpenAI()` starts


def test_parameter_properties_local_functions_and_this_methods() -> None:
    ir = parse_ts(AGENT)
    assert call(ir, "decide").callee == "@memrail/sdk.AMIClient.decide"
    assert call(ir, "helper").callee == "src/app/agent.helper"
    fallback = call(ir, "fallback")
    assert (fallback.callee, fallback.receiver, fallback.scope) == (
        "src/app/agent.Agent.fallback", "this", "Agent.run")


def test_package_call_results_name_their_methods_and_globals() -> None:
    ir = parse_ts(AGENT)
    assert call(ir, "parse").callee == "zod.z.enum.parse"
    assert call(ir, "fetch").callee == "globalThis.fetch"


def test_commonjs_namespaces_construct_their_default_export() -> None:
    ir = parse_ts("""
        const OpenAI = require('openai');
        const stripe = require('stripe')(process.env.KEY);
        const c = new OpenAI();
        c.chat.completions.create({});
        stripe.refunds.create({ charge: 'ch' });
    """)
    assert _creates(ir) == {"c.chat.completions": "openai.default.chat.completions.create",
                            "stripe.refunds": "stripe.default.refunds.create"}


def test_object_literal_arguments_expose_keys_and_literals() -> None:
    ir = parse_ts("""
        client.decide({
          decisionPoint: 'support.refund',
          context: [state('a.b', 1), ...atomsFromDict(data, 'customer'), `t-${id}`],
          options: { dry_run: true, top_k: 3, 'human_consent': null },
          [computed]: 1,
          short,
          ...rest,
        });
    """)
    [argument] = call(ir, "decide").args
    assert argument.kind is ValueKind.DICT
    assert [key for key, _ in argument.entries] == ["decisionPoint", "context", "options",
                                                    None, "short", None]
    assert argument.entry("decisionPoint").literal == "support.refund"
    options = argument.entry("options")
    assert (options.entry("dry_run").literal, options.entry("top_k").literal,
            options.entry("human_consent").kind) == (True, 3, ValueKind.NONE)
    context = argument.entry("context")
    assert [item.kind for _, item in context.entries] == [ValueKind.CALL, ValueKind.SPREAD,
                                                          ValueKind.FORMAT]
    spread = context.entries[1][1]
    assert spread.entries[0][1].call == call(ir, "atomsFromDict").id
    assert context.entries[2][1].reads == ("id",)
    assert argument.entry("short").ref == "short"
    assert argument.entries[-1][1].kind is ValueKind.SPREAD


def test_literal_values() -> None:
    ir = parse_ts(r"""
        f('it\'s', "a\u00e9\n", `plain`, 0x1F, 1_000, .5, -2, 10n, true, false, null, undefined);
    """)
    literals = [(value.kind.value, value.literal) for value in call(ir, "f").args]
    assert literals == [("string", "it's"), ("string", "a\u00e9\n"), ("string", "plain"),
                        ("number", 31), ("number", 1000), ("number", 0.5), ("number", -2),
                        ("number", 10), ("bool", True), ("bool", False), ("none", None),
                        ("none", None)]


def test_awaited_receiver_statement_and_location() -> None:
    ir = parse_ts("""
        async function f() {
          const r = await api.client.post(url, { method: 'PUT' });
        }
    """)
    post = call(ir, "post")
    assert post.awaited and post.receiver == "api.client" and post.scope == "f"
    assert (post.location.line, post.location.column) == (2, 19)
    assert (post.statement.line, post.statement.column) == (2, 3)
    assert post.id == f"{PATH}:2:19"


def test_columns_are_characters_not_bytes() -> None:
    ir = parse_ts("const café = '日本語'; const é = f('é'); g();\n")
    f, g = call(ir, "f"), call(ir, "g")
    assert (f.location.column, f.location.end_column) == (31, 37)
    assert (g.location.line, g.location.column) == (1, 39)


def test_optional_chaining_and_non_null_are_dropped_from_paths() -> None:
    ir = parse_ts("a?.b!.c?.(x); resp.choices[0]['message'].content.trim(); t[i].run();\n")
    assert call(ir, "c").receiver == "a.b"
    assert call(ir, "trim").receiver == 'resp.choices[0]["message"].content'
    assert call(ir, "run").receiver == "t[*]"


def test_jsx_calls_are_read() -> None:
    ir = parse_ts("""
        export const View = () => <div onClick={() => go(1)}>{items.map((i) => <b>{f(i)}</b>)}</div>;
    """, path="src/view.tsx", language=Language.TSX)
    assert {c.name for c in ir.calls} == {"go", "map", "f"}


def test_javascript_grammar() -> None:
    ir = parse_ts("""
        const express = require('express');
        const app = express();
        app.post('/x', async function handler(req, res) { res.json(await run(req.body)); });
    """, path="server.js", language=Language.JAVASCRIPT)
    assert ir.language is Language.JAVASCRIPT
    assert call(ir, "run").scope == "handler"


def test_getter_return_and_declared_field_types_name_the_declared_class() -> None:
    ir = parse_ts('''
        import { Page } from 'playwright';
        import { TwitterApi } from 'twitter-api-v2';
        class Computer {
          private _page: Page | null = null;
          private twitter: TwitterApi;
          private other;
          constructor(args: Args) {
            this.twitter = args.twitter;
            this.other = args.other;
          }
          get page(): Page { return this._page!; }
          get count() { return 1; }
          async click() {
            await this.page.mouse.click(1, 2);
            await this.twitter.v2.tweet('hi');
            await this.other.v2.tweet('hi');
            this.count.toFixed();
          }
        }
    ''')
    assert call(ir, "click").callee == "playwright.Page.mouse.click"
    assert call(ir, "tweet").callee == "twitter-api-v2.TwitterApi.v2.tweet"
    assert call(ir, "tweet", nth=1).callee != "twitter-api-v2.TwitterApi.v2.tweet"
    assert call(ir, "toFixed").callee != "playwright.Page.toFixed"


def test_a_pack_wrapper_call_denotes_its_first_argument() -> None:
    from topo.analyzers.typescript.frontend import parse_typescript
    source = (
        "import { exec } from 'node:child_process';\n"
        "import { promisify } from 'node:util';\n"
        "import { wrap } from 'other';\n"
        "const run = promisify(exec);\n"
        "const kept = wrap(exec);\n"
        "run('ls');\n"
        "kept('ls');\n")
    wrapped = parse_typescript(PATH, source, "m", wrappers=frozenset({"util.promisify"}))
    plain = parse_typescript(PATH, source, "m")
    assert call(wrapped, "run").callee == "child_process.exec"
    assert call(wrapped, "kept").callee == "other.wrap"     # not a wrapper: not unwrapped
    assert call(plain, "run").callee == "util.promisify"    # no pack says so: not guessed


def test_a_class_bases_are_what_it_extends_and_implements() -> None:
    ir = parse_ts("""
        import { StructuredTool } from '@langchain/core/tools';
        import { Computer, Shell } from '@openai/agents';
        import * as agents from '@openai/agents';
        class Local implements Shell, agents.Editor, Comparable<Local> {}
        class Browser extends StructuredTool implements Computer {}
        """)
    bases = {d.qualname: d.bases for d in ir.definitions if d.kind is DefinitionKind.CLASS}
    assert bases["Local"] == ("@openai/agents.Shell", "@openai/agents.Editor")
    assert bases["Browser"] == ("@langchain/core/tools.StructuredTool", "@openai/agents.Computer")


def test_a_receiver_that_is_no_path_keeps_what_it_reads():
    ir = parse_ts("const ok = (reply.text ?? '').toLowerCase();\nconst n = user.name.trim();\n")
    first, second = call(ir, "toLowerCase"), call(ir, "trim")
    assert (first.receiver, first.receiver_reads) == (None, ("reply.text",))
    assert (second.receiver, second.receiver_reads) == ("user.name", ())


def test_a_chain_on_a_constructed_package_instance_keeps_its_type_at_any_depth() -> None:
    ir = parse_ts("""
        import { Client } from 'pkg';
        class Local { make() { return 1; } }
        export async function go() {
          const one = new Client({ k: 1 }).derive(1);
          await one.run();
          await new Client().derive(1).configure({}).run();
          const local = new Local().make();
          await local.run();
        }
    """)
    runs = [c.callee for c in ir.calls if c.name == "run"]
    # One expression or several: the method of a package instance's result is named through
    # it; a repo class's method result is left to the resolution stage (its return type).
    assert runs == ["pkg.Client.derive.run", "pkg.Client.derive.configure.run", None]


def test_a_pack_wrapper_method_denotes_its_argument_through_a_chain() -> None:
    from topo.analyzers.packs import wrappers
    ir = parse_ts("""
        import { ChatAnthropic } from '@langchain/anthropic';
        import { ChatPromptTemplate } from '@langchain/core/prompts';
        import { StringOutputParser } from '@langchain/core/output_parsers';
        const prompt = ChatPromptTemplate.fromMessages([['user', '{t}']]);
        const llm = new ChatAnthropic({});
        export async function go() {
          await prompt.pipe(llm).invoke({});
          await prompt.pipe(llm).pipe(new StringOutputParser()).invoke({});
          await prompt.pipe(new StringOutputParser()).invoke({});
        }
    """, wrappers=wrappers())
    assert [c.callee for c in ir.calls if c.name == "invoke"] == [
        "@langchain/anthropic.ChatAnthropic.invoke",
        "@langchain/anthropic.ChatAnthropic.pipe.invoke",
        "@langchain/core/output_parsers.StringOutputParser.invoke"]


def test_an_optional_type_or_a_default_names_the_class_its_alternatives_agree_on() -> None:
    ir = parse_ts("""
        import OpenAI from 'openai';
        import { Store } from './store';
        class Replay {}
        export function typed(a: OpenAI | undefined, b: OpenAI | null) {
          a!.chat.completions.create({});
          b!.chat.completions.create({});
        }
        export function defaulted(given?: OpenAI, flag = false) {
          const first = given ?? new OpenAI();
          const second = given || new OpenAI();
          const third = flag ? new OpenAI() : null;
          first.chat.completions.create({});
          second.chat.completions.create({});
          third!.chat.completions.create({});
        }
        export function unknown(d: OpenAI | Replay, given?: OpenAI) {
          const mixed = given ?? new Replay();
          d.chat.completions.create({});
          mixed.chat.completions.create({});
        }
        export function own(given?: Store) {
          const store = given ?? new Store();   // the repository's own state: unread
          store.chat.completions.create({});
        }
    """)
    callees = [c.callee for c in ir.calls if c.name == "create"]
    assert callees == ["openai.default.chat.completions.create"] * 5 + [None, None, None]
