// Found: each field of TOPOLOGY_STATE the audit must read from the code (as fields_py).
//
// - memrail_project: the client's literal `project: 'billing'` (and a call's own `project`);
// - a decision point held in a constant (CHECKOUT_POINT), imported (REFUND_POINT) or read
//   through a namespace import (points.AUDIT_POINT) or as a key of an object (POINTS.gift);
// - presence with its polarity: after `if (request.anonymous) return`, customer.id is built
//   when `!(request.anonymous)`; inside `if (cart.gift)`, gift.note when the condition holds;
// - one producer per emit: the event built inside `emitEvent({ event: event(...) })` is that
//   emit's argument, not a second producer.

import { AMIClient, event, state } from '@memrail/sdk';
import * as points from './points';
import { POINTS, REFUND_POINT } from './points';

const ami = new AMIClient({ project: 'billing' });
const CHECKOUT_POINT = 'billing.checkout';

export async function refund(request: { id: string; anonymous: boolean; customerId: string }) {
  const context = [state('refund.request_id', request.id)];
  if (request.anonymous) {
    return null;
  }
  context.push(state('customer.id', request.customerId));
  const decision = await ami.decide({ decisionPoint: REFUND_POINT, context });
  return decision.selected.map((item) => item.action.directive);
}

export async function checkout(cart: { id: string; gift: boolean; note: string }) {
  const context = [state('cart.id', cart.id)];
  if (cart.gift) {
    context.push(state('gift.note', cart.note));
  }
  const decision = await ami.decide({ decisionPoint: CHECKOUT_POINT, context });
  return decision.selected.map((item) => item.action.directive);
}

export async function auditRefund(request: { id: string }) {
  const decision = await ami.decide({
    decisionPoint: points.AUDIT_POINT,
    project: 'ledger',
    context: [state('refund.request_id', request.id)],
  });
  return decision.selected.map((item) => item.action.directive);
}

export async function wrapGift(cart: { id: string }) {
  const decision = await ami.decide({ decisionPoint: POINTS.gift, context: [state('cart.id', cart.id)] });
  return decision.selected.map((item) => item.action.directive);
}

export async function recordPayment(cart: { id: string }) {
  await ami.emitEvent({
    event: event('customer.paid.order', { ts: new Date().toISOString(), attributes: { cart_id: cart.id } }),
    project: 'billing',
  });
}

export async function recordGift(cart: { id: string }) {
  await ami.emitEvent({
    event: event('customer.paid.order', { ts: new Date().toISOString(), attributes: { cart_id: cart.id, gift: true } }),
    project: 'billing',
  });
}
