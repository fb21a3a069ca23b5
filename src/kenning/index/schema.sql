-- schema_version 4
-- migrations m001_facts m002_code m003_git_and_graph m004_file_activity
CREATE TABLE "_sqlite_migrations" (
   "id" INTEGER PRIMARY KEY,
   "migration_set" TEXT,
   "name" TEXT,
   "applied_at" TEXT
);
CREATE UNIQUE INDEX "idx__sqlite_migrations_migration_set_name"
    ON "_sqlite_migrations" ("migration_set", "name");
CREATE TABLE "meta" (
   "key" TEXT PRIMARY KEY,
   "value" TEXT
);
CREATE TABLE "facts" (
   "id" TEXT PRIMARY KEY,
   "kind" TEXT,
   "text" TEXT,
   "rationale" TEXT,
   "tags" TEXT,
   "topic" TEXT,
   "status" TEXT,
   "origin" TEXT,
   "confidence" INTEGER,
   "created" TEXT,
   "confirmed" TEXT,
   "store" TEXT,
   "path" TEXT,
   "about" TEXT,
   "terms" TEXT,
   "superseded_by" TEXT,
   "format" INTEGER
);
CREATE INDEX "idx_facts_topic"
    ON "facts" ("topic");
CREATE VIRTUAL TABLE "facts_fts" USING FTS5 (
    "text", "rationale", "tags", "terms",
    tokenize='porter',
    content="facts"
);
CREATE TRIGGER "facts_ai" AFTER INSERT ON "facts" BEGIN
  INSERT INTO "facts_fts" (rowid, "text", "rationale", "tags", "terms") VALUES (new.rowid, new."text", new."rationale", new."tags", new."terms");
END;
CREATE TRIGGER "facts_ad" AFTER DELETE ON "facts" BEGIN
  INSERT INTO "facts_fts" ("facts_fts", rowid, "text", "rationale", "tags", "terms") VALUES('delete', old.rowid, old."text", old."rationale", old."tags", old."terms");
END;
CREATE TRIGGER "facts_au" AFTER UPDATE ON "facts" BEGIN
  INSERT INTO "facts_fts" ("facts_fts", rowid, "text", "rationale", "tags", "terms") VALUES('delete', old.rowid, old."text", old."rationale", old."tags", old."terms");
  INSERT INTO "facts_fts" (rowid, "text", "rationale", "tags", "terms") VALUES (new.rowid, new."text", new."rationale", new."tags", new."terms");
END;
CREATE TABLE "fact_files" (
   "path" TEXT PRIMARY KEY,
   "fact_id" TEXT,
   "mtime_ns" INTEGER,
   "size" INTEGER,
   "hash" TEXT
);
CREATE TABLE "fact_vectors" (
   "id" TEXT PRIMARY KEY,
   "vec" BLOB
);
CREATE TABLE "usage" (
   "fact_id" TEXT PRIMARY KEY,
   "last_used" TEXT,
   "uses" INTEGER
);
CREATE TABLE "problems" (
   "path" TEXT PRIMARY KEY,
   "message" TEXT
);
CREATE TABLE "files" (
   "path" TEXT PRIMARY KEY,
   "lang" TEXT,
   "kind" TEXT,
   "size" INTEGER,
   "mtime_ns" INTEGER,
   "hash" TEXT,
   "indexed_at" TEXT
);
CREATE TABLE "chunks" (
   "id" INTEGER PRIMARY KEY,
   "path" TEXT,
   "start_line" INTEGER,
   "end_line" INTEGER,
   "kind" TEXT,
   "symbol" TEXT,
   "lang" TEXT,
   "doc" INTEGER,
   "text" TEXT,
   "terms" TEXT
);
CREATE INDEX "idx_chunks_path"
    ON "chunks" ("path");
CREATE VIRTUAL TABLE "chunks_fts" USING FTS5 (
    "symbol", "path", "text", "terms",
    tokenize='porter',
    content="chunks"
);
CREATE TRIGGER "chunks_ai" AFTER INSERT ON "chunks" BEGIN
  INSERT INTO "chunks_fts" (rowid, "symbol", "path", "text", "terms") VALUES (new.rowid, new."symbol", new."path", new."text", new."terms");
END;
CREATE TRIGGER "chunks_ad" AFTER DELETE ON "chunks" BEGIN
  INSERT INTO "chunks_fts" ("chunks_fts", rowid, "symbol", "path", "text", "terms") VALUES('delete', old.rowid, old."symbol", old."path", old."text", old."terms");
END;
CREATE TRIGGER "chunks_au" AFTER UPDATE ON "chunks" BEGIN
  INSERT INTO "chunks_fts" ("chunks_fts", rowid, "symbol", "path", "text", "terms") VALUES('delete', old.rowid, old."symbol", old."path", old."text", old."terms");
  INSERT INTO "chunks_fts" (rowid, "symbol", "path", "text", "terms") VALUES (new.rowid, new."symbol", new."path", new."text", new."terms");
END;
CREATE TABLE "chunk_vectors" (
   "chunk_id" INTEGER PRIMARY KEY,
   "vec" BLOB
);
CREATE TABLE "symbols" (
   "id" INTEGER PRIMARY KEY,
   "name" TEXT,
   "qualname" TEXT,
   "kind" TEXT,
   "path" TEXT,
   "start_line" INTEGER,
   "end_line" INTEGER,
   "body_hash" TEXT
);
CREATE INDEX "idx_symbols_path"
    ON "symbols" ("path");
CREATE INDEX "idx_symbols_qualname"
    ON "symbols" ("qualname");
CREATE INDEX "idx_symbols_name"
    ON "symbols" ("name");
CREATE TABLE "imports" (
   "path" TEXT,
   "target" TEXT
);
CREATE INDEX "idx_imports_path"
    ON "imports" ("path");
CREATE TABLE "commits" (
   "sha" TEXT PRIMARY KEY,
   "ts" INTEGER,
   "author" TEXT,
   "subject" TEXT
);
CREATE TABLE "commit_files" (
   "sha" TEXT,
   "path" TEXT,
   "old_path" TEXT,
   "added" INTEGER,
   "deleted" INTEGER
);
CREATE INDEX "idx_commit_files_path"
    ON "commit_files" ("path");
CREATE INDEX "idx_commit_files_sha"
    ON "commit_files" ("sha");
CREATE TABLE "graph_nodes" (
   "id" TEXT PRIMARY KEY,
   "type" TEXT,
   "label" TEXT,
   "community" INTEGER,
   "pagerank" REAL
);
CREATE TABLE "graph_edges" (
   "src" TEXT,
   "dst" TEXT,
   "kind" TEXT,
   "weight" REAL
);
CREATE INDEX "idx_graph_edges_src"
    ON "graph_edges" ("src");
CREATE INDEX "idx_graph_edges_dst"
    ON "graph_edges" ("dst");
CREATE TABLE "file_activity" (
   "path" TEXT,
   "day" TEXT,
   "count" INTEGER,
   PRIMARY KEY ("path", "day")
);
