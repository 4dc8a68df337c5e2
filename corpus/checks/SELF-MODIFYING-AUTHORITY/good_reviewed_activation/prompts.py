from mubit import Client

client = Client()


def nightly_prompt_update(project_id: str):
    # Produces a candidate only; a person reviews the diff and activates it from the console.
    return client.optimize_prompt(agent_id="ari", project_id=project_id, auto_activate=False)


def activate_reviewed(version_id: str):
    client.advanced.activate_prompt_version(agent_id="ari", version_id=version_id)  # EXPECT-NOT: SELF-MODIFYING-AUTHORITY
