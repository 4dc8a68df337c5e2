from mubit import Client

client = Client()


def resolve(ticket_id: str, run_fix, nightly_export_completed):
    answer = client.recall(session_id=f"nimbus:ari:{ticket_id}", query="How do we fix CSV export timeouts?",
                           entry_types=["lesson", "fact"], evidence_only=True)
    entry_ids = [e["id"] for e in answer.get("evidence", [])]
    run_fix()
    verdict = nightly_export_completed()
    client.record_outcome(session_id=f"nimbus:ari:{ticket_id}", reference_id=entry_ids[0],  # EXPECT-NOT: UNVERIFIED-OUTCOME
                          outcome="success" if verdict else "failure", signal=0.8 if verdict else -0.8,
                          entry_ids=entry_ids, verified_in_production=verdict,
                          idempotency_key=f"{ticket_id}:export-verdict")
