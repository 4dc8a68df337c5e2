import { AMIClient, state } from "@memrail/sdk";
import memrail, { client, makeClient, REFUND_POINT } from "./control";

export async function importedInstance(order: string) {
  return client.decide({ decisionPoint: REFUND_POINT, context: [state("order.id", order)] });
}

export async function defaultExport(order: string) {
  return memrail.decide({ decisionPoint: "billing.default", context: [state("order.id", order)] });
}

export async function factoryResult(order: string) {
  const ami = makeClient();
  return ami.decide({ decisionPoint: "billing.factory", context: [state("order.id", order)] });
}

async function run(ami, order: string) {
  return ami.decideAndExecute({ decisionPoint: "billing.run", context: [state("order.id", order)] });
}

export async function main(order: string) {
  const ami = new AMIClient({ project: "support" });
  return run(ami, order);
}

// --- twins that must not be found --------------------------------------------------------

class Planner {
  decide(options: { decisionPoint: string }) {
    return options.decisionPoint;
  }
}

async function route(ami, order: string) {
  return ami.decide({ decisionPoint: "billing.route", context: [state("order.id", order)] });
}

export async function routeBoth(order: string) {
  await route(makeClient(), order);
  await route(new Planner(), order);
}

export async function orphan(ami, order: string) {
  return ami.decide({ decisionPoint: "billing.orphan", context: [state("order.id", order)] });
}

export function plannerDecides() {
  return new Planner().decide({ decisionPoint: "not.memrail" });
}
