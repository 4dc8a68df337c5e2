import { exec } from "node:child_process";

export function runCommand(command: string) {
  return exec(command);
}

export function safeEcho() {
  return exec("echo ready");
}
