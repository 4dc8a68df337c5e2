// The SDK's own source: what `tool` and `shellTool` build (no effect of its own here).
export function tool(options: { name: string; execute: (input: any) => unknown }) {
  return { type: 'function', ...options };
}

export function shellTool(options: { shell: { run(action: any): unknown }; needsApproval?: boolean }) {
  return { type: 'shell', ...options };
}
