PURGE = "purge_notes"
