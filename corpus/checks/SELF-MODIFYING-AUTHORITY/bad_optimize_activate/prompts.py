from mubit import Client

client = Client()


def nightly_prompt_update(project_id: str):
    resp = client.optimize_prompt(agent_id="ari", project_id=project_id, auto_activate=False)
    client.advanced.activate_prompt_version(agent_id="ari",  # EXPECT: SELF-MODIFYING-AUTHORITY
                                            version_id=resp["candidate"]["version_id"])
