import { MongoClient } from 'mongodb';
import Redis from 'ioredis';
import { createClient } from '@supabase/supabase-js';

const mongo = new MongoClient('mongodb://localhost');
const redis = new Redis();
const supabase = createClient('https://x.supabase.co', 'key');

export async function documents(doc: object) {
  await mongo.db('app').collection('orders').insertOne(doc); // W datastores.ts.mongo data_write
  await mongo.db('app').collection('orders').findOneAndUpdate({}, { $set: doc }); // W datastores.ts.mongo data_write
  await mongo.db('app').collection('orders').find({}).toArray(); // R
  await supabase.from('orders').insert(doc); // W datastores.ts.supabase data_write
  await supabase.from('orders').select('*'); // R
}

export async function keyValues(key: string, value: string) {
  await redis.set(key, value); // W datastores.ts.redis data_write
  await redis.get(key); // R
}
