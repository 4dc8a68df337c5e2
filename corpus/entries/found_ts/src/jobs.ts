// Scheduled jobs and queue consumers that refund without a person or a model asking.
import cron from 'node-cron';
import { Worker } from 'bullmq';
import { Kafka } from 'kafkajs';
import { createClient } from 'redis';
import { Consumer } from 'sqs-consumer';
import amqp from 'amqplib';
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

const subscriber = createClient();
await subscriber.subscribe('refund-requests', async (message) => {
  await issueRefund(message, 100);
});

Consumer.create({
  queueUrl: 'https://sqs.us-east-1.amazonaws.com/1/refunds',
  handleMessage: async (message) => {
    await issueRefund(String(message.Body), 100);
  },
}).start();

const connection = await amqp.connect('amqp://localhost');
const channel = await connection.createChannel();
await channel.consume('chargebacks', async (msg) => {
  await issueRefund(String(msg?.content), 100);
});
