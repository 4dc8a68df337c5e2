// Scheduled jobs and queue consumers that refund without a person or a model asking.
import cron from 'node-cron';
import { Worker } from 'bullmq';
import { Kafka } from 'kafkajs';
import { issueRefund } from './payments';

async function retryPendingRefunds() {
  await issueRefund('ch_pending', 500);
}

cron.schedule('0 3 * * *', retryPendingRefunds);

new Worker('refunds', async (job) => {
  await issueRefund(job.data.charge, job.data.amount);
});

setInterval(() => issueRefund('ch_interval', 100), 60_000);

const consumer = new Kafka({ brokers: ['localhost:9092'] }).consumer({ groupId: 'billing' });
consumer.run({
  eachMessage: async ({ message }) => {
    await issueRefund(String(message.value), 100);
  },
});
