"""Discovery: which files of a repository the audit reads (the inventory, excludes, languages,
manifests) and the deployment configuration files beside the code."""
