import express from 'express';
import { AMIClient, state, tag, event } from '@memrail/sdk';
import { issueRefund } from '@/lib/payments';
import { classifyIntent } from './lib/classifier';

const app = express();
const ami = new AMIClient({ project: 'support' });

app.post('/refunds', async (req, res) => {
  const { chargeId, amountCents, message } = req.body;
  const intent = await classifyIntent(message);
  const decision = await ami.decide({
    decisionPoint: 'support.refund',
    context: [
      state('refund.amount_cents', amountCents),
      state('refund.charge_id', chargeId),
      tag('intent', intent, 'ml'),
    ],
    options: { dry_run: false },
  });
  if (decision.selected.length === 0) {
    return res.status(403).json({ error: 'not allowed' });
  }
  await issueRefund(chargeId, amountCents);
  await ami.emitEvent({
    event: event('agent.issued.refund', { ts: new Date().toISOString(), attributes: { charge_id: chargeId } }),
  });
  await ami.ack({ activationId: decision.selected[0].activation_id, status: 'acknowledged' });
  res.json({ ok: true });
});

app.listen(3000);
