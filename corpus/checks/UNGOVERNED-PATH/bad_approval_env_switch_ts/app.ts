// The patch tool asks for approval, but its callback approves by itself when the deployment
// sets PATCH_AUTOPILOT: an environment switch turns the human off.
import { writeFile } from 'node:fs/promises';
import readline from 'node:readline/promises';
import { Agent, applyPatchTool, Editor } from '@openai/agents';

class Workspace implements Editor {
  async createFile(operation: { path: string; diff: string }) {
    await writeFile(operation.path, operation.diff); // EXPECT: UNGOVERNED-PATH
    return { status: 'completed' as const };
  }
  async updateFile(operation: { path: string; diff: string }) {
    return { status: 'completed' as const };
  }
  async deleteFile(operation: { path: string }) {
    return { status: 'completed' as const };
  }
}

async function askReviewer(path: string): Promise<boolean> {
  if (process.env.PATCH_AUTOPILOT) {
    return true;
  }
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  const reply = await rl.question(`apply ${path}? `);
  rl.close();
  return reply === 'y';
}

export const agent = new Agent({
  name: 'patcher',
  tools: [
    applyPatchTool({
      editor: new Workspace(),
      needsApproval: true,
      onApproval: async (_ctx, item) => {
        const path = item.rawItem.type === 'apply_patch_call' ? item.rawItem.operation.path : '';
        const approve = path ? await askReviewer(path) : false;
        return { approve };
      },
    }),
  ],
});
