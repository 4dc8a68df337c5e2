import { Client, Pool } from 'pg';

export class AppDeps {
  db: Pool;
  loose: any;
  maybe: Pool | undefined;
  either: Pool | Client;

  constructor(db: Pool) {
    this.db = db;
  }
}
