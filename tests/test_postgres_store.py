"""The PostgreSQL store beyond the shared contract: its schema versions, its faults said in
one line without the password, a server that stops mid-search, and concurrent use."""

from __future__ import annotations

import threading
from pathlib import Path

import psycopg
import pytest
from postgres_server import fresh_database, with_database, with_user
from test_store_contract import make_pages

from retrieval.open_store import open_store, store_location
from retrieval.postgres import schema as postgres_schema
from retrieval.postgres.errors import (
    StoreConfigurationError,
    StoreUnavailable,
    redact,
    translate,
)
from retrieval.postgres.store import PostgresStore
from retrieval.store import GridFilter

pytest_plugins = ("postgres_server",)
SECRET = "s3cret-Pa55"


def test_redact_hides_passwords_in_the_address_and_its_query():
    assert redact(f"postgresql://ana:{SECRET}@db.example:5433/grid") == (
        "postgresql://ana:***@db.example:5433/grid"
    )
    assert SECRET not in redact(f"postgresql://db/grid?user=ana&password={SECRET}")
    assert redact("postgresql://ana@db/grid") == "postgresql://ana@db/grid"


def test_an_unreachable_server_is_one_clear_line_without_the_password():
    uri = f"postgresql://ana:{SECRET}@127.0.0.1:1/grid"
    with pytest.raises(StoreUnavailable) as caught:
        PostgresStore(uri)
    message = str(caught.value)
    assert "127.0.0.1" in message and "unavailable" in message and "\n" not in message
    assert SECRET not in message and "ana:***@" in message


@pytest.mark.parametrize(
    "uri", [f"postgresql://ana:{SECRET}@[bad", f"postgresql://ana:{SECRET}@db:notaport/grid"]
)
def test_a_malformed_address_is_refused_without_echoing_it(uri):
    with pytest.raises((StoreConfigurationError, StoreUnavailable)) as caught:
        PostgresStore(uri)
    assert SECRET not in str(caught.value)


def test_a_server_without_pgvector_says_how_to_install_it():
    error = psycopg.errors.FeatureNotSupported('extension "vector" is not available')
    message = str(translate(error, f"postgresql://ana:{SECRET}@db/grid", "opening the grid"))
    assert "CREATE EXTENSION vector" in message and "pgvector" in message
    assert SECRET not in message


def test_a_user_who_may_not_enable_the_extension_is_told_who_can(postgres_server):
    name = fresh_database(postgres_server)
    role = f"reader_{name[-6:]}"
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute(f'CREATE ROLE "{role}" LOGIN NOSUPERUSER')
        conn.execute(f'ALTER DATABASE "{name}" OWNER TO "{role}"')
    try:
        with pytest.raises(StoreConfigurationError, match="CREATE EXTENSION vector"):
            PostgresStore(with_user(with_database(postgres_server, name), role))
    finally:
        with psycopg.connect(postgres_server, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
            conn.execute(f'DROP ROLE "{role}"')


def test_wrong_credentials_are_refused_and_never_echoed(private_postgres):
    with psycopg.connect(private_postgres.uri, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE ana LOGIN SUPERUSER PASSWORD '{SECRET}'")
        hba = Path(conn.execute("SHOW hba_file").fetchone()[0])
        hba.write_text("local all ana scram-sha-256\n" + hba.read_text())
        conn.execute("SELECT pg_reload_conf()")
    wrong = with_user(private_postgres.uri, "ana", SECRET + "-wrong")
    with pytest.raises(StoreConfigurationError, match="refused the credentials") as caught:
        PostgresStore(wrong)
    assert SECRET not in str(caught.value)
    PostgresStore(with_user(private_postgres.uri, "ana", SECRET)).close()  # the rule is live


def test_a_fresh_database_gets_the_current_schema_and_a_newer_one_is_refused(postgres_uri):
    PostgresStore(postgres_uri).close()
    with psycopg.connect(postgres_uri, autocommit=True) as conn:
        versions = [r[0] for r in conn.execute("SELECT version FROM wissen.schema_version")]
        assert versions == list(range(1, postgres_schema.VERSION + 1))
        conn.execute("INSERT INTO wissen.schema_version (version) VALUES (%s)", [99])
    with pytest.raises(StoreConfigurationError, match="schema version 99, newer"):
        PostgresStore(postgres_uri)


def test_an_older_schema_is_upgraded_in_place_keeping_its_pages(postgres_uri):
    with psycopg.connect(postgres_uri, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION vector")
        conn.execute("CREATE SCHEMA wissen")
        conn.execute("CREATE TABLE wissen.schema_version (version integer PRIMARY KEY, "
                     "applied_at timestamptz NOT NULL DEFAULT now())")  # fmt: skip
        conn.execute(postgres_schema.STEPS[0])
        conn.execute("INSERT INTO wissen.schema_version (version) VALUES (1)")
        conn.execute(
            "INSERT INTO wissen.pages (uid, doc_name, ticker, company, fy, fq, doc_type, "
            "page_index, text, text_hash, doc_len) VALUES ('u1', 'D', 'MMM', '3M', 2018, 4, "
            "'10-K', 0, 'capital expenditures', 'h', 2)"
        )
    store = PostgresStore(postgres_uri)
    assert store.stats()["pages"] == 1 and store.facts(GridFilter()) == []
    assert store.bm25(["capital"], GridFilter(ticker="MMM"), 5)
    store.close()


def test_a_foreign_pages_table_is_not_taken_for_a_grid(postgres_uri):
    with psycopg.connect(postgres_uri, autocommit=True) as conn:
        conn.execute("CREATE SCHEMA wissen")
        conn.execute("CREATE TABLE wissen.pages (id integer)")
    with pytest.raises(StoreConfigurationError, match="not made by this program"):
        PostgresStore(postgres_uri)


def test_a_server_stopped_mid_search_raises_a_typed_error_and_the_store_recovers(
    private_postgres,
):
    store = PostgresStore(private_postgres.uri)
    store.upsert_document(make_pages(texts=("capital expenditures", "revenue")))
    assert store.bm25(["capital"], GridFilter(ticker="MMM"), 5)
    private_postgres.stop()
    with pytest.raises(StoreUnavailable, match="unavailable while searching"):
        store.bm25(["capital"], GridFilter(ticker="MMM"), 5)
    private_postgres.start()
    assert store.bm25(["capital"], GridFilter(ticker="MMM"), 5)  # the pool reconnects
    store.close()


def test_searches_and_an_ingest_run_at_once_without_errors(postgres_uri):
    store = PostgresStore(postgres_uri, max_connections=4)
    store.upsert_document(make_pages(texts=("capital expenditures",) * 3))
    errors: list[BaseException] = []
    stop = threading.Event()

    def search() -> None:
        while not stop.is_set():
            try:
                assert store.bm25(["capital"], GridFilter(ticker="MMM"), 5)
            except BaseException as exc:  # collected and asserted below
                errors.append(exc)
                return

    readers = [threading.Thread(target=search) for _ in range(6)]
    for reader in readers:
        reader.start()
    for n in range(20):
        store.upsert_document(make_pages(f"3M_{1990 + n}_10K", fy=1990 + n, texts=("a", "b")))
    stop.set()
    for reader in readers:
        reader.join()
    assert errors == [] and store.stats()["documents"] == 21
    store.close()


def test_the_store_address_comes_from_the_option_or_the_environment(postgres_uri, monkeypatch):
    mangled = Path(postgres_uri)  # what a Path-typed option makes of an address
    assert store_location(mangled) == postgres_uri
    monkeypatch.setenv("WISSEN_STORE", postgres_uri)
    store = open_store(seed_if_empty=False)
    assert isinstance(store, PostgresStore) and store.stats()["pages"] == 0
    store.close()
