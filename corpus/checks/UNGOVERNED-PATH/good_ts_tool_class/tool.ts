import { execSync } from 'node:child_process';

// The same method on a class that extends no tool base: the program calls it itself.
export class Builder {
  async _call(input: { command: string }) {
    return execSync(input.command).toString(); // EXPECT-NOT: UNGOVERNED-PATH
  }
}

export async function build() {
  return new Builder()._call({ command: 'make' });
}
