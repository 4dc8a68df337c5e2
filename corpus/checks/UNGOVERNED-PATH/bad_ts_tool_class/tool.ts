import { execSync } from 'node:child_process';
import { StructuredTool } from '@langchain/core/tools';
import { z } from 'zod';

export class ShellTool extends StructuredTool {
  name = 'run_shell';
  description = 'Runs a shell command';
  schema = z.object({ command: z.string() });

  async _call(input: { command: string }) {
    return execSync(input.command).toString(); // EXPECT: UNGOVERNED-PATH
  }
}
