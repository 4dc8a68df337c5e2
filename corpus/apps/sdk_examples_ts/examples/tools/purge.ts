import { rm } from 'node:fs/promises';
import { execSync } from 'node:child_process';
import { tool, shellTool } from '@openai/agents';

// The library's own example: `@openai/agents` is a workspace package of this repository, and
// its `tool` is re-exported from agents-core's source; the example still calls the SDK.
export const purgeWorkspace = tool({
  name: 'purge_workspace',
  execute: async ({ path }: { path: string }) => {
    await rm(path, { recursive: true });
    return 'purged';
  },
});

class LocalShell {
  async run(action: { commands: string[] }) {
    return action.commands.map((command) => execSync(command).toString());
  }
}

export const shell = shellTool({ shell: new LocalShell(), needsApproval: true });
