import { execSync } from 'node:child_process';
import { unlink, writeFile } from 'node:fs/promises';
import { Agent, applyPatchTool, Computer, Editor, run, shellTool, tool, webSearchTool } from '@openai/agents';
import { RealtimeAgent, tool as realtimeTool } from '@openai/agents/realtime';
import { z } from 'zod';

export const cancelOrder = tool({
  name: 'cancel_order',
  description: 'Cancel an order',
  parameters: z.object({ orderId: z.string() }),
  needsApproval: true,
  execute: async ({ orderId }) => `cancelled ${orderId}`,
});

export const sendEmail = tool({
  name: 'send_email',
  description: 'Send an email',
  parameters: z.object({ to: z.string(), subject: z.string() }),
  needsApproval: async (_ctx, { subject }) => subject.includes('spam'),
  async execute({ to }) {
    return `sent to ${to}`;
  },
});

class LocalShell {
  async run(action: { commands: string[] }) {
    const output: string[] = [];
    for (const command of action.commands) {
      output.push(execSync(command).toString());
    }
    return output;
  }
}

class WorkspaceEditor implements Editor {
  async createFile(operation: { path: string; diff: string }) {
    await writeFile(operation.path, operation.diff);
  }
  async deleteFile(operation: { path: string }) {
    await unlink(operation.path);
  }
}

export class Browser implements Computer {
  async screenshot() {
    return '';
  }
  async type(text: string) {
    return text;
  }
}

const editor = new WorkspaceEditor();

export const agent = new Agent({
  name: 'ops',
  tools: [
    cancelOrder,
    sendEmail,
    shellTool({ shell: new LocalShell() }),
    applyPatchTool({ editor, needsApproval: true }),
    webSearchTool(),
  ],
});

export const voice = new RealtimeAgent({
  name: 'voice',
  tools: [realtimeTool({ name: 'weather', parameters: z.object({ city: z.string() }), execute: async ({ city }) => city })],
});

export async function triage(input: string) {
  const result = await run(agent, input);
  if (result.finalOutput?.includes('refund')) {
    return run(agent, 'Cancel the order.');
  }
  return result.finalOutput;
}
