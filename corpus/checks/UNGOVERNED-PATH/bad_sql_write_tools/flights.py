"""The same tools, but what the query starts with is not known to be SELECT: a write built the
same ways, a name assigned twice, and an f-string whose verb is a hole."""

import sqlite3

from langchain_core.tools import tool

DB = "travel.sqlite"


@tool
def cancel_ticket(ticket_no: str) -> str:
    """Cancel a ticket."""
    cursor = sqlite3.connect(DB).cursor()
    query = "DELETE FROM ticket_flights WHERE ticket_no = ?"
    cursor.execute(query, (ticket_no,))  # EXPECT: UNGOVERNED-PATH
    return "cancelled"


@tool
def update_tickets(ticket_no: str, seat: str = "", fare: str = "") -> str:
    """Change a ticket's seat or fare."""
    cursor = sqlite3.connect(DB).cursor()
    query = "UPDATE tickets SET ticket_no = ticket_no"
    params = []
    if seat:
        query += ", seat_no = ?"
        params.append(seat)
    if fare:
        query += ", fare_conditions = ?"
        params.append(fare)
    query += " WHERE ticket_no = ?"
    cursor.execute(query, [*params, ticket_no])  # EXPECT: UNGOVERNED-PATH
    return "updated"


@tool
def lookup_or_purge(ticket_no: str, purge: bool = False) -> list:
    """Read a ticket, or purge it."""
    cursor = sqlite3.connect(DB).cursor()
    query = "SELECT * FROM tickets WHERE ticket_no = ?"
    if purge:
        query = "DELETE FROM tickets WHERE ticket_no = ?"
    cursor.execute(query, (ticket_no,))  # EXPECT: UNGOVERNED-PATH
    return cursor.fetchall()


@tool
def run_statement(verb: str, table: str) -> list:
    """Run a statement the model chose."""
    cursor = sqlite3.connect(DB).cursor()
    cursor.execute(f"{verb} FROM {table}")  # EXPECT: UNGOVERNED-PATH
    return cursor.fetchall()
