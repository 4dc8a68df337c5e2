"""Rule packs on TypeScript: classification end to end from inline sources, and decoys."""

from __future__ import annotations

from topo.analyzers.flow.facts import source_facts
from topo.analyzers.packs import classify
from topo.analyzers.model import SiteKind
from tests.typescript.ts_helpers import parse_ts


def _sites(source: str, **options):
    return classify([parse_ts(source, **options)])


def _one(sites, kind: SiteKind):
    found = [site for site in sites if site.kind is kind]
    assert len(found) == 1, [(s.kind.value, s.attr("entry")) for s in sites]
    return found[0]


MEMRAIL = """
import { AMIClient, state, tag, event, atomsFromDict, ToolRegistry } from '@memrail/ami-sdk';
const client = new AMIClient();
const registry = new ToolRegistry();
async function handle(req, intent) {
  const d = await client.decide({
    decisionPoint: 'support.refund',
    context: [state('refund.amount_cents', 5000), tag('intent', intent, 'ml'),
              ...atomsFromDict({ tier: 'gold', region: 'eu', _secret: 1 }, 'customer')],
    project: 'support',
    options: { dry_run: true, human_consent: true },
  });
  await client.emitEvent({ event: event('agent.issued.refund', { ts: 'now', attributes: { id: 1 } }) });
  await client.emitEvent({ subject: 'agent', verb: 'sent', object: 'email' });
  await client.ack({ activationId: d.selected[0].activation_id, status: 'acknowledged' });
}
async function refundTool(args) { await pay(args); }
registry.registerTool('refund', 'Refund', {}, ['support'], refundTool, { timeoutMs: 10 });
"""


def test_memrail_typescript_decision_atoms_events_ack_and_tools() -> None:
    sites = _sites(MEMRAIL)
    decision = _one(sites, SiteKind.DECISION_CALL)
    assert (decision.attr("decision_point"), decision.attr("dry_run"),
            decision.attr("human_consent"), decision.attr("project")) == (
        "support.refund", True, True, "support")
    atoms = {site.attr("key"): site for site in sites if site.kind is SiteKind.ATOM}
    assert set(atoms) == {"refund.amount_cents", "intent", "customer.tier", "customer.region",
                          "agent.issued.refund"}
    assert atoms["intent"].attr("source") == "ml"
    assert len(decision.attr("atoms")) == 3     # state, tag and the atomsFromDict call
    events = sorted(str(s.attr("event_name")) for s in sites if s.kind is SiteKind.EVENT_EMIT)
    assert events == ["agent.issued.refund", "agent.sent.email"]
    emit = next(s for s in sites if s.kind is SiteKind.EVENT_EMIT
                and s.attr("event_name") == "agent.issued.refund")
    assert emit.attr("attribute_keys") == ("id",)
    assert _one(sites, SiteKind.ACK).attr("status") == "acknowledged"
    tool = _one(sites, SiteKind.TOOL_REGISTRATION)
    assert (tool.attr("tool_name"), tool.attr("definition"), tool.attr("projects")) == (
        "refund", "src/app/agent.refundTool", ("support",))


def test_memrail_decoys_are_not_classified() -> None:
    sites = _sites("""
        import { AMIClient } from '@acme/ami';
        import { state } from 'valtio';
        function decide(o) { return o; }
        new AMIClient().decide({ decisionPoint: 'x', context: [] });
        decide({ decisionPoint: 'x' });
        state('refund.amount', 1);
    """)
    assert sites == ()


def test_vercel_tool_points_at_execute_whose_parameters_are_model_filled() -> None:
    ir = parse_ts("""
        import { generateText, tool } from 'ai';
        import { z } from 'zod';
        export const sendEmail = tool({
          description: 'Send an email',
          parameters: z.object({ to: z.string(), approved: z.boolean() }),
          execute: async ({ to, approved }) => { await fetch(to, { method: 'POST' }); },
        });
        await generateText({ model: m, tools: { sendEmail }, system: 'Be nice' });
    """)
    facts = source_facts([ir])
    tool = _one(facts.sites, SiteKind.TOOL_REGISTRATION)
    assert tool.attr("definition") == "src/app/agent.sendEmail.execute"
    assert tool.attr("framework") == "vercel_ai"
    inference = _one(facts.sites, SiteKind.INFERENCE)
    assert (inference.attr("provider"), inference.attr("system_prompt")) == (
        "vercel_ai", "'Be nice'")
    executor = _one(facts.sites, SiteKind.EXECUTOR)
    consent = [s for s in facts.sites if s.kind is SiteKind.APPROVAL_GATE]
    assert [s.attr("parameter") for s in consent] == ["approved"]
    # The model fills `to`; it reaches the fetch.
    assert tool.id in facts.model.argument_labels(ir, next(
        c for c in ir.calls if c.id == executor.attr("call")))


def test_openai_anthropic_default_exports_match_the_python_patterns() -> None:
    sites = _sites("""
        import OpenAI from 'openai';
        import Anthropic from '@anthropic-ai/sdk';
        const openai = new OpenAI();
        const anthropic = new Anthropic();
        await openai.chat.completions.create({ model: 'gpt-4o', messages, tools });
        await anthropic.messages.create({ model: 'claude-3-5-sonnet', max_tokens: 1, messages });
    """)
    found = sorted((s.attr("provider"), s.attr("model"), s.attr("callee")) for s in sites)
    assert found == [
        ("anthropic", "claude-3-5-sonnet", "@anthropic-ai/sdk.default.messages.create"),
        ("openai", "gpt-4o", "openai.default.chat.completions.create")]


def test_fetch_is_a_sink_only_with_a_mutating_method() -> None:
    sites = _sites("""
        await fetch('https://api/x', { method: 'POST', body });
        await fetch('https://api/x', { method: 'delete' });
        await fetch('https://api/x');
        await fetch('https://api/x', { method: 'GET' });
    """)
    executors = [s for s in sites if s.kind is SiteKind.EXECUTOR]
    assert [(s.location.line, s.attr("method")) for s in executors] == [(1, "POST"),
                                                                        (2, "delete")]


def test_javascript_sinks() -> None:
    sites = _sites("""
        import axios from 'axios';
        import nodemailer from 'nodemailer';
        import { PrismaClient } from '@prisma/client';
        import { Resend } from 'resend';
        import sgMail from '@sendgrid/mail';
        const { execSync } = require('node:child_process');
        const stripe = require('stripe')(process.env.KEY);
        const prisma = new PrismaClient();
        const api = axios.create({ baseURL: 'x' });
        const transporter = nodemailer.createTransport({});
        const resend = new Resend('k');
        await axios.post('/refund', body);
        await api.delete('/users/1');
        await axios({ method: 'put', url: '/x' });
        await axios.get('/read');
        await prisma.user.deleteMany({});
        await prisma.order.create({ data });
        await prisma.user.findMany();
        await transporter.sendMail({ to });
        await resend.emails.send({ to });
        await sgMail.send(msg);
        execSync(cmd);
        await stripe.refunds.create({ charge: 'ch_1', amount: 100 });
    """)
    found = [(s.location.line, s.attr("tier")) for s in sites if s.kind is SiteKind.EXECUTOR]
    assert found == [(12, "communication"), (13, "communication"), (14, "communication"),
                     (16, "deletion"), (17, "data_write"), (19, "communication"),
                     (20, "communication"), (21, "communication"), (22, "code_execution"),
                     (23, "money")]


def test_mcp_server_tools_name_their_last_argument() -> None:
    sites = _sites("""
        import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
        const server = new McpServer({ name: 'x', version: '1' });
        server.tool('wipe', 'Wipe a disk', { disk: z.string() }, async ({ disk }) => wipe(disk));
        server.registerTool('drop', { description: 'Drop' }, dropTable);
        function dropTable() {}
    """)
    tools = sorted((s.attr("tool_name"), s.attr("definition")) for s in sites
                   if s.kind is SiteKind.TOOL_REGISTRATION)
    assert tools == [("drop", "src/app/agent.dropTable"), ("wipe", "src/app/agent.<lambda>@3:58")]


def test_langchain_js() -> None:
    sites = _sites("""
        import { ChatOpenAI } from '@langchain/openai';
        import { tool, DynamicStructuredTool } from '@langchain/core/tools';
        const llm = new ChatOpenAI({ model: 'gpt-4o' });
        const refund = tool(async ({ id }) => pay(id), { name: 'refund', schema });
        const lookup = new DynamicStructuredTool({ name: 'lookup', schema, func: async () => 1 });
        await llm.bindTools([refund, lookup]).invoke(messages);
        await llm.invoke('hi');
    """)
    assert sorted(s.attr("tool_name") for s in sites
                  if s.kind is SiteKind.TOOL_REGISTRATION) == ["lookup", "refund"]
    assert sorted(s.location.line for s in sites if s.kind is SiteKind.INFERENCE) == [6, 7]


def test_zod_enum_parse_is_a_validation() -> None:
    sites = _sites("""
        import { z } from 'zod';
        const Intent = z.enum(['refund', 'question']);
        const intent = Intent.parse(output.intent);
        z.enum(['a']).safeParse(x);
        z.object({}).parse(y);
    """)
    assert sorted((s.location.line, s.attr("value")) for s in sites
                  if s.kind is SiteKind.VALIDATION) == [(3, "output.intent"), (4, "x")]


def test_commonjs_calls_of_a_whole_module_call_its_default_export() -> None:
    sites = _sites("""
        const fetch = require('node-fetch');
        const axios = require('axios');
        await fetch(url, { method: 'PATCH' });
        await axios({ method: 'delete', url });
        await axios.put(url, body);
    """)
    assert [(s.location.line, s.attr("entry")) for s in sites if s.kind is SiteKind.EXECUTOR] == [
        (3, "http.ts.fetch"), (4, "http.ts.axios_config"), (5, "http.ts.methods")]


def test_drizzle_and_knex_writes() -> None:
    sites = _sites("""
        import { drizzle } from 'drizzle-orm/node-postgres';
        import knex from 'knex';
        const db = drizzle(pool);
        const sql = knex({ client: 'pg' });
        await db.insert(users).values({ name });
        await db.select().from(users);
        await sql('users').where({ id }).del();
        await sql('users').insert({ name });
    """)
    assert [(s.location.line, s.attr("entry")) for s in sites if s.kind is SiteKind.EXECUTOR] == [
        (5, "sinks.ts.drizzle"), (7, "sinks.ts.knex"), (8, "sinks.ts.knex")]


def test_hand_written_anthropic_tool_loop() -> None:
    ir = parse_ts("""
        import Anthropic from '@anthropic-ai/sdk';
        const anthropic = new Anthropic();
        const TOOLS = { refund: refundCustomer, email: sendEmail };
        export async function run(messages) {
          const response = await anthropic.messages.create({ model: 'claude', tools, messages });
          if (response.stop_reason !== 'tool_use') {
            return response;
          }
          for (const block of response.content) {
            if (block.type === 'tool_use') {
              await TOOLS[block.name](block.input);
            }
          }
        }
        function refundCustomer() {}
        function sendEmail() {}
    """)
    sites = source_facts([ir]).sites
    kinds = sorted((s.kind.value, s.location.line) for s in sites)
    assert kinds == [("dispatcher", 11), ("inference", 5), ("model_branch", 6),
                     ("model_branch", 10)]
    dispatcher = next(s for s in sites if s.kind is SiteKind.DISPATCHER)
    assert dispatcher.attr("targets") == ("src/app/agent.refundCustomer",
                                          "src/app/agent.sendEmail")
