export const orders = { name: "orders" };
export const users = { name: "users", id: "id" };
