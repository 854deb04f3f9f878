package dev.lychee.cli;

import dev.lychee.core.store.PrivateFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Where the CLI keeps a memory, and the checks around it. The home is {@code $LYCHEE_HOME}, else
 * {@code $HOME/.lychee}; the store path is {@code --db}, else {@code $LYCHEE_DB}, else
 * {@code lychee.db} (SQLite) or {@code lucene/} (Lucene) in the home.
 *
 * <p>Commands that only read ({@code recall}, {@code ask}, {@code inspect}, {@code forget},
 * {@code status}, {@code encode}) never create anything: a missing path, a directory without a
 * Lucene store and an empty file are errors that name the path. {@code ingest} creates what is
 * missing, private to the user (directories 0700, the database file 0600), since memory holds
 * personal data; SQLite gives its WAL and shared-memory files the database file's permissions.
 *
 * @param kind {@code sqlite} or {@code lucene}
 * @param path the SQLite file or the Lucene directory
 */
record MemoryLocation(String kind, Path path) {
  private static final byte[] SQLITE_HEADER = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);

  static MemoryLocation resolve(String kind, Path db, Map<String, String> env) {
    if (db == null && nonBlank(env.get("LYCHEE_DB"))) {
      db = Path.of(env.get("LYCHEE_DB").trim());
    }
    if (db == null) {
      db = home(env).resolve(kind.equals("lucene") ? "lucene" : "lychee.db");
    }
    return new MemoryLocation(kind, db.toAbsolutePath().normalize());
  }

  /** {@code $LYCHEE_HOME}, else {@code $HOME/.lychee} ({@code user.home} only when HOME is unset). */
  static Path home(Map<String, String> env) {
    if (nonBlank(env.get("LYCHEE_HOME"))) {
      return Path.of(env.get("LYCHEE_HOME").trim());
    }
    String home = nonBlank(env.get("HOME")) ? env.get("HOME") : System.getProperty("user.home");
    return Path.of(home, ".lychee");
  }

  /**
   * Fails, naming the path, unless a memory of this kind exists there: a SQLite file that is not
   * empty, or a directory whose {@code records} index has a commit.
   *
   * @throws UserError when nothing (or something else) is there
   */
  void requireExisting() {
    if (!Files.exists(path)) {
      throw new UserError("no memory at " + path + " (nothing was ingested there; check --db, "
          + "LYCHEE_DB or LYCHEE_HOME, or run `lychee ingest` first)");
    }
    checkKind();
    // the stores create what is missing when they open: a directory without a Lucene store would
    // get two empty indexes, an empty file the SQLite schema, where a reading command only looks
    if (kind.equals("lucene") ? !holdsLuceneStore() : isEmptyFile()) {
      throw new UserError("no memory at " + path + " (" + (kind.equals("lucene") ? "the directory holds no Lucene store"
          : "the file is empty") + "; check --db, LYCHEE_DB or LYCHEE_HOME, or run `lychee ingest` first)");
    }
  }

  /**
   * Whether the directory holds a Lucene store: its records index has a commit (a {@code segments_N}
   * file), which the store writes when it first opens, before anything is ingested.
   */
  private boolean holdsLuceneStore() {
    Path records = path.resolve("records");
    if (!Files.isDirectory(records)) {
      return false;
    }
    try (Stream<Path> files = Files.list(records)) {
      return files.anyMatch(f -> f.getFileName().toString().startsWith("segments_"));
    } catch (IOException e) {
      throw new UserError("cannot read " + records + ": " + e.getMessage());
    }
  }

  /** Whether the database file is empty (and so is its write-ahead log, should one be there). */
  private boolean isEmptyFile() {
    try {
      Path wal = path.resolveSibling(path.getFileName() + "-wal");
      return Files.size(path) == 0 && (!Files.exists(wal) || Files.size(wal) == 0);
    } catch (IOException e) {
      throw new UserError("cannot read " + path + ": " + e.getMessage());
    }
  }

  /** Creates the store's directories and, for SQLite, an empty private database file. */
  void createIfMissing() {
    try {
      if (kind.equals("lucene")) {
        PrivateFiles.createDirectories(path);
        return;
      }
      PrivateFiles.createFile(path);
      // the store keeps its HNSW graphs beside the file; create that directory private too
      PrivateFiles.createDirectories(path.resolveSibling(path.getFileName() + ".hnsw"));
    } catch (IOException e) {
      throw new UserError("cannot create " + path + ": " + e.getMessage());
    }
    checkKind();
  }

  private void checkKind() {
    if (kind.equals("lucene")) {
      if (!Files.isDirectory(path)) {
        throw new UserError(path + " is not a Lucene store directory (--store lucene expects a directory)");
      }
      return;
    }
    if (Files.isDirectory(path)) {
      throw new UserError(path + " is a directory, not a SQLite database file");
    }
    if (!Files.isReadable(path)) {
      throw new UserError("cannot read " + path + " (permission denied)");
    }
    try (InputStream in = Files.newInputStream(path)) {
      byte[] head = in.readNBytes(SQLITE_HEADER.length);
      // an empty file is a new database
      if (head.length > 0 && !Arrays.equals(head, SQLITE_HEADER)) {
        throw new UserError(path + " is not a Lychee database (not a SQLite file)");
      }
    } catch (IOException e) {
      throw new UserError("cannot read " + path + ": " + e.getMessage());
    }
  }

  private static boolean nonBlank(String s) {
    return s != null && !s.isBlank();
  }
}
