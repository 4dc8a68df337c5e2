import { AMIClient } from "@memrail/sdk";

export const REFUND_POINT = "billing.refund";
export const client = new AMIClient({ project: "support" });
const memrail = new AMIClient({ project: "support" });
export default memrail;

export function makeClient() {
  return new AMIClient({ project: "support" });
}
