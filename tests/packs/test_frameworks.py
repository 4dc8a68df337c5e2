"""Framework packs through the engine: inference, tools, gates, sinks, decoys."""

from __future__ import annotations

import pytest

from topo.analyzers.ir import DefinitionKind
from topo.analyzers.model import SiteKind
from tests.packs.builders import (FileBuilder, attrs, b, call_value, list_value, n, s, site_for,
                                  sites_of, v)


@pytest.mark.parametrize(("callee", "system"), [
    ("openai.OpenAI.chat.completions.create", "openai"),
    ("openai.AsyncOpenAI.chat.completions.create", "openai"),
    ("openai.OpenAI.beta.chat.completions.parse", "openai"),
    ("openai.AsyncOpenAI.responses.create", "openai"),
    ("anthropic.Anthropic.messages.create", "anthropic"),
    ("anthropic.AsyncAnthropic.messages.stream", "anthropic"),
    ("litellm.completion", "litellm"),
    ("litellm.acompletion", "litellm"),
    ("google.generativeai.GenerativeModel.generate_content", "google_genai"),
    ("google.genai.Client.models.generate_content", "google_genai"),
    ("langchain_openai.ChatOpenAI.invoke", "langchain"),
    ("langchain_anthropic.ChatAnthropic.ainvoke", "langchain"),
    ("langchain_openai.ChatOpenAI.bind_tools.invoke", "langchain"),
    ("langchain.chat_models.init_chat_model.stream", "langchain"),
    ("langchain_openai.ChatOpenAI.bind_tools", "langchain"),
    ("langchain.agents.AgentExecutor.invoke", "langchain"),
    ("langgraph.prebuilt.create_react_agent.invoke", "langgraph"),
    ("langgraph.graph.StateGraph.compile.invoke", "langgraph"),
    ("agents.Runner.run", "openai_agents"),
    ("agents.Runner.run_sync", "openai_agents"),
    ("pydantic_ai.Agent.run_sync", "pydantic_ai"),
    ("crewai.Crew.kickoff", "crewai"),
    ("llama_index.core.VectorStoreIndex.as_query_engine.query", "llama_index"),
    ("llama_index.llms.openai.OpenAI.chat", "llama_index"),
    ("sklearn.linear_model.LogisticRegression.predict", "ml"),
])
def test_inference_calls(callee, system):
    fb = FileBuilder()
    call = fb.call(callee, scope="Agent.run")
    site = site_for(sites_of(fb), SiteKind.INFERENCE, call)
    assert site.system == system and site.attr("role") == "inference"
    assert site.symbol == "app.agent.Agent.run" and site.inferred is False


@pytest.mark.parametrize("callee", [
    "app.model.predict", "predict", "numpy.predict", "app.llm.invoke", "myopenai.OpenAI.chat",
    "openai.OpenAI.chat.completions", "openai.OpenAI.models.list", "langchain_openai.invoke",
    "requests.get", "httpx.Client.get", "os.path.exists",
])
def test_non_inference_names_are_not_classified(callee):
    fb = FileBuilder()
    fb.call(callee)
    assert sites_of(fb) == ()


def test_openai_call_records_model_tools_and_tool_choice():
    fb = FileBuilder()
    call = fb.call("openai.OpenAI.chat.completions.create", model=s("gpt-4o"),
                   messages=v("messages"), tools=v("TOOLS"), tool_choice=s("auto"))
    site = attrs(site_for(sites_of(fb), SiteKind.INFERENCE, call))
    assert site["provider"] == "openai" and site["model"] == "gpt-4o"
    assert site["tools"] == "TOOLS" and site["tool_choice"] == "auto"


def test_model_from_a_setting_is_not_literal():
    fb = FileBuilder()
    call = fb.call("anthropic.Anthropic.messages.create", model=v("settings.model"))
    site = attrs(site_for(sites_of(fb), SiteKind.INFERENCE, call))
    assert site["model_literal"] is False and site["model_text"] == "settings.model"
    assert "tools" not in site


def test_litellm_model_is_positional_or_keyword():
    fb = FileBuilder()
    positional = fb.call("litellm.completion", s("gpt-4o-mini"), v("messages"))
    keyword = fb.call("litellm.completion", model=s("claude"))
    sites = sites_of(fb)
    assert site_for(sites, SiteKind.INFERENCE, positional).attr("model") == "gpt-4o-mini"
    assert site_for(sites, SiteKind.INFERENCE, keyword).attr("model") == "claude"


def test_stripe_refund_is_a_money_executor():
    fb = FileBuilder()
    call = fb.call("stripe.Refund.create", charge=v("charge_id"), amount=n(500), scope="refund")
    site = site_for(sites_of(fb), SiteKind.EXECUTOR, call)
    assert site.system == "stripe" and site.symbol == "app.agent.refund"
    assert attrs(site) == {"tier": "money", "role": "execution", "entry": "sinks.stripe",
                           "callee": "stripe.Refund.create", "call": call.id,
                           "amount": 500, "charge": "charge_id"}


@pytest.mark.parametrize(("callee", "tier"), [
    ("stripe.StripeClient.refunds.create", "money"),
    ("stripe.PaymentIntent.create", "money"),
    ("smtplib.SMTP.send_message", "communication"),
    ("smtplib.SMTP_SSL.sendmail", "communication"),
    ("sendgrid.SendGridAPIClient.send", "communication"),
    ("resend.Emails.send", "communication"),
    ("twilio.rest.Client.messages.create", "communication"),
    ("slack_sdk.WebClient.chat_postMessage", "communication"),
    ("requests.post", "communication"),
    ("httpx.AsyncClient.delete", "communication"),
    ("aiohttp.ClientSession.put", "communication"),
    ("os.remove", "deletion"),
    ("shutil.rmtree", "deletion"),
    ("pathlib.Path.unlink", "deletion"),
    ("boto3.client.delete_object", "deletion"),
    ("boto3.client.attach_role_policy", "access"),
    ("sqlalchemy.orm.Session.commit", "data_write"),
    ("sqlite3.connect.execute", "data_write"),
    ("subprocess.run", "code_execution"),
    ("os.system", "code_execution"),
    ("builtins.exec", "code_execution"),
    ("builtins.eval", "code_execution"),
])
def test_sink_tiers(callee, tier):
    fb = FileBuilder()
    call = fb.call(callee, v("x"))
    assert site_for(sites_of(fb), SiteKind.EXECUTOR, call).attr("tier") == tier


def test_reads_are_not_sinks():
    fb = FileBuilder()
    for callee in ("requests.get", "httpx.get", "os.listdir", "boto3.client.get_object",
                   "exec", "app.helpers.eval", "stripe.Refund.retrieve"):
        fb.call(callee)
    assert sites_of(fb) == ()


def test_sql_execute_is_inferred_and_records_the_sql():
    fb = FileBuilder()
    call = fb.call("sqlite3.connect.execute", s("DELETE FROM users WHERE id = ?"), v("args"))
    site = site_for(sites_of(fb), SiteKind.EXECUTOR, call)
    assert site.inferred is True and site.attr("sql") == "DELETE FROM users WHERE id = ?"


def test_subprocess_shell_flag():
    fb = FileBuilder()
    shell = fb.call("subprocess.run", v("cmd"), shell=b(True))
    plain = fb.call("subprocess.run", list_value(s("ls")))
    sites = sites_of(fb)
    assert site_for(sites, SiteKind.EXECUTOR, shell).attr("shell") is True
    assert site_for(sites, SiteKind.EXECUTOR, plain).attr("shell") is False
    assert site_for(sites, SiteKind.EXECUTOR, plain).attr("command") == ("ls",)


def test_langgraph_interrupt_is_an_enforced_human_gate():
    fb = FileBuilder()
    call = fb.call("langgraph.types.interrupt", s("Approve refund?"), scope="review")
    site = site_for(sites_of(fb), SiteKind.APPROVAL_GATE, call)
    assert site.system == "langgraph" and site.symbol == "app.agent.review"
    assert attrs(site)["enforced"] is True and attrs(site)["approver"] == "human"
    assert attrs(site)["role"] == "authority" and attrs(site)["prompt"] == "'Approve refund?'"


def test_langgraph_compile_with_interrupt_before_only():
    fb = FileBuilder()
    gated = fb.call("langgraph.graph.StateGraph.compile", interrupt_before=list_value(s("tools")))
    plain = fb.call("langgraph.graph.StateGraph.compile", checkpointer=v("memory"))
    sites = sites_of(fb)
    assert site_for(sites, SiteKind.APPROVAL_GATE, gated).attr("interrupt_before") == ("tools",)
    assert not [site for site in sites if site.location == plain.location]


def test_mcp_tool_decorator():
    fb = FileBuilder()
    _, named = fb.decorated("refund", "mcp.server.fastmcp.FastMCP.tool", name=s("issue_refund"),
                            parameters=("order_id", "amount"))
    _, plain = fb.decorated("lookup", "fastmcp.FastMCP.tool")
    sites = sites_of(fb)
    named_site = site_for(sites, SiteKind.TOOL_REGISTRATION, location=named.location)
    assert named_site.system == "mcp" and named_site.attr("tool_name") == "issue_refund"
    assert named_site.symbol == "app.agent.refund"
    assert site_for(sites, SiteKind.TOOL_REGISTRATION,
                    location=plain.location).attr("tool_name") == "lookup"


@pytest.mark.parametrize(("decorator", "system"), [
    ("langchain_core.tools.tool", "langchain"),
    ("langchain.tools.tool", "langchain"),
    ("agents.function_tool", "openai_agents"),
    ("pydantic_ai.Agent.tool", "pydantic_ai"),
    ("pydantic_ai.Agent.tool_plain", "pydantic_ai"),
    ("crewai.tools.tool", "crewai"),
])
def test_tool_decorators(decorator, system):
    fb = FileBuilder()
    _, definition = fb.decorated("lookup_order", decorator, bare=True)
    site = site_for(sites_of(fb), SiteKind.TOOL_REGISTRATION, location=definition.location)
    assert site.system == system and site.attr("tool_name") == "lookup_order"


def test_tool_decorator_as_a_plain_call_is_not_a_decorator_site():
    fb = FileBuilder()
    fb.define("lookup")
    call = fb.call("langchain_core.tools.tool", v("lookup"))
    site = site_for(sites_of(fb), SiteKind.TOOL_REGISTRATION, call)
    assert site.attr("definition") == "app.agent.lookup" and site.location == call.location


def test_structured_tool_and_function_tool_from_defaults():
    fb = FileBuilder()
    fb.define("refund")
    structured = fb.call("langchain_core.tools.StructuredTool.from_function",
                         func=v("refund"), name=s("refund_tool"))
    llama = fb.call("llama_index.core.tools.FunctionTool.from_defaults", fn=v("refund"))
    sites = sites_of(fb)
    structured_attrs = attrs(site_for(sites, SiteKind.TOOL_REGISTRATION, structured))
    assert structured_attrs["tool_name"] == "refund_tool"
    assert structured_attrs["definition"] == "app.agent.refund"
    assert site_for(sites, SiteKind.TOOL_REGISTRATION,
                    llama).attr("definition") == "app.agent.refund"


def test_function_tool_needs_approval_adds_a_gate_only_when_true():
    fb = FileBuilder()
    _, gated = fb.decorated("refund", "agents.function_tool", needs_approval=b(True))
    _, ungated = fb.decorated("lookup", "agents.function_tool", needs_approval=b(False))
    _, dynamic = fb.decorated("maybe", "agents.function_tool", needs_approval=v("check"))
    sites = sites_of(fb)
    gate = site_for(sites, SiteKind.APPROVAL_GATE, location=gated.location)
    assert gate.attr("enforced") is True and gate.attr("approver") == "human"
    assert gate.symbol == "app.agent.refund"
    gates = [site for site in sites if site.kind is SiteKind.APPROVAL_GATE]
    assert gates == [gate]
    assert len([site for site in sites if site.kind is SiteKind.TOOL_REGISTRATION]) == 3
    assert site_for(sites, SiteKind.TOOL_REGISTRATION,
                    location=dynamic.location).attr("needs_approval_literal") is False


def test_class_based_tool_takes_its_name_from_the_class_body():
    fb = FileBuilder()
    definition = fb.define("RefundTool", kind=DefinitionKind.CLASS,
                           bases=("langchain_core.tools.BaseTool",))
    fb.assign("name", s("refund"), scope="RefundTool")
    other = fb.define("Plain", kind=DefinitionKind.CLASS, bases=("BaseTool", "app.BaseTool"))
    sites = sites_of(fb)
    site = site_for(sites, SiteKind.TOOL_REGISTRATION, location=definition.location)
    assert site.attr("tool_name") == "refund" and site.symbol == "app.agent.RefundTool"
    assert site.attr("base") == "langchain_core.tools.BaseTool"
    assert not [site for site in sites if site.location == other.location]


def test_consent_parameters_on_tools_are_unenforced_model_authority():
    fb = FileBuilder()
    _, tool = fb.decorated("refund", "mcp.server.fastmcp.FastMCP.tool",
                           parameters=("order_id", "approved", "force"))
    fb.define("helper", parameters=("approved",))       # not a tool: no site
    sites = sites_of(fb)
    gates = sorted((site for site in sites if site.kind is SiteKind.APPROVAL_GATE),
                   key=lambda site: site.id)
    assert [site.attr("parameter") for site in gates] == ["approved", "force"]
    approved = gates[0]
    assert approved.id == f"approval_gate:app/agent.py:{tool.location.line}:1:approved"
    assert approved.attr("enforced") is False and approved.attr("approver") == "model"
    assert approved.inferred is True and approved.attr("tool_name") == "refund"


def test_feature_flag_reads_are_config_gates():
    fb = FileBuilder()
    ld = fb.call("ldclient.get.variation", s("refunds-auto"), v("ctx"), b(False))
    unleash = fb.call("UnleashClient.UnleashClient.is_enabled", s("refunds"))
    sites = sites_of(fb)
    ld_site = site_for(sites, SiteKind.CONFIG_GATE, ld)
    assert ld_site.system == "launchdarkly" and ld_site.attr("flag") == "refunds-auto"
    assert ld_site.attr("default") is False and ld_site.attr("enforced") is True
    assert site_for(sites, SiteKind.CONFIG_GATE, unleash).attr("flag") == "refunds"


def test_bind_tools_records_the_tools_exposed():
    fb = FileBuilder()
    call = fb.call("langchain_openai.ChatOpenAI.bind_tools", list_value(v("refund"), v("lookup")))
    site = attrs(site_for(sites_of(fb), SiteKind.INFERENCE, call))
    assert site["operation"] == "bind_tools" and site["tools"] == "[refund, lookup]"


def test_a_call_result_chain_is_still_the_resolved_name():
    """`OpenAI().chat.completions.create` is named through the constructor by the front-end;
    the engine needs nothing more than the name."""
    fb = FileBuilder()
    construct = fb.call("openai.OpenAI")
    call = fb.call("openai.OpenAI.chat.completions.create", model=s("m"))
    sites = sites_of(fb)
    assert [site.location for site in sites] == [call.location]
    assert construct.id != call.id and call_value(construct).call == construct.id
