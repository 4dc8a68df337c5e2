"""Read-only flight tools: each query is known to be a SELECT, however it is built (a name's
one assignment, an f-string, a literal extended by `+=`). Found auditing the LangGraph
customer-support tutorial, whose search tools were reported as database writes."""

import sqlite3

from langchain_core.tools import tool

DB = "travel.sqlite"


@tool
def fetch_tickets(passenger_id: str) -> list:
    """The passenger's tickets."""
    cursor = sqlite3.connect(DB).cursor()
    query = """
    SELECT t.ticket_no, f.flight_no FROM tickets t JOIN flights f ON t.flight_id = f.flight_id
    WHERE t.passenger_id = ?
    """
    cursor.execute(query, (passenger_id,))  # EXPECT-NOT: UNGOVERNED-PATH
    return cursor.fetchall()


@tool
def search_flights(departure: str = "", arrival: str = "", limit: int = 20) -> list:
    """Flights between two airports."""
    cursor = sqlite3.connect(DB).cursor()
    query = "SELECT * FROM flights WHERE 1 = 1"
    params = []
    if departure:
        query += " AND departure_airport = ?"
        params.append(departure)
    if arrival:
        query += " AND arrival_airport = ?"
        params.append(arrival)
    query += " LIMIT ?"
    params.append(limit)
    cursor.execute(query, params)  # EXPECT-NOT: UNGOVERNED-PATH
    return cursor.fetchall()


@tool
def count_rows(table: str) -> int:
    """How many rows a table holds."""
    cursor = sqlite3.connect(DB).cursor()
    cursor.execute(f"SELECT COUNT(*) FROM {table}")  # EXPECT-NOT: UNGOVERNED-PATH
    return cursor.fetchone()[0]
