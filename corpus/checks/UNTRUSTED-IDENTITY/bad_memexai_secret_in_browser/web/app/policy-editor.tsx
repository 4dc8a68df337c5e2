"use client";
import { MemexAI } from "@memexai/sdk";

const memex = new MemexAI({ url: process.env.NEXT_PUBLIC_MEMEX_URL!, apiKey: process.env.NEXT_PUBLIC_MEMEX_API_KEY! });  // EXPECT: UNTRUSTED-IDENTITY

export async function savePlaybook(path: string, content: string) {
  return fetch(`${process.env.NEXT_PUBLIC_MEMEX_URL}/v1/admin/files/${path}`, {  // EXPECT: UNTRUSTED-IDENTITY
    method: "PUT",
    headers: { "x-memex-admin-secret": process.env.NEXT_PUBLIC_MEMEX_ADMIN_SECRET! },
    body: JSON.stringify({ content }),
  });
}

export const adminKey = import.meta.env.VITE_MEMEX_ADMIN_SECRET;  // EXPECT: UNTRUSTED-IDENTITY
