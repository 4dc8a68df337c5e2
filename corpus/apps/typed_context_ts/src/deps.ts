import { Pool } from 'pg';

export class AppDeps {
  db: Pool;
  loose: any;
  maybe: Pool | undefined;

  constructor(db: Pool) {
    this.db = db;
  }
}
