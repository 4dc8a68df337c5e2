"""Work-tracking, CRM and commerce SDKs: writes next to reads."""

import gitlab
import shopify
from github import Github
from hubspot import HubSpot
from jira import JIRA
from notion_client import Client as NotionClient
from simple_salesforce import Salesforce


def code_hosts(name: str, title: str) -> None:
    gh = Github("token")
    repo = gh.get_repo(name)
    repo.create_issue(title=title)  # W saas.github data_write
    repo.get_issue(1).edit(state="closed")  # W saas.github data_write
    repo.get_issues(state="open")  # R
    repo.get_contents("README.md")  # R
    gl = gitlab.Gitlab("https://gitlab.example", private_token="t")
    gl.projects.get(1).issues.create({"title": title})  # W saas.gitlab data_write
    gl.projects.get(1).issues.list()  # R


def trackers(summary: str) -> None:
    jira = JIRA(server="https://jira.example")
    jira.create_issue(fields={"summary": summary})  # W saas.jira data_write
    jira.transition_issue("K-1", "Done")  # W saas.jira data_write
    jira.search_issues("project = K")  # R
    notion = NotionClient(auth="t")
    notion.pages.create(parent={"database_id": "d"}, properties={})  # W saas.notion data_write
    notion.blocks.children.append(block_id="b", children=[])  # W saas.notion data_write
    notion.databases.query(database_id="d")  # R


def crm_and_shop(email: str) -> None:
    hub = HubSpot(access_token="t")
    hub.crm.contacts.basic_api.create(simple_public_object_input_for_create={})  # W saas.hubspot data_write
    hub.crm.contacts.basic_api.get_page()  # R
    sf = Salesforce(username="u", password="p", security_token="t")
    sf.Contact.create({"Email": email})  # W saas.salesforce data_write
    sf.query("SELECT Id FROM Contact")  # R
    shopify.Order.cancel(1)  # W saas.shopify money
    shopify.Order.find(1)  # R
