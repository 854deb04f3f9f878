package dev.lychee.store.sqlite;

import dev.lychee.api.spi.RecordStore;
import dev.lychee.core.conformance.BaseRecordStoreTestCase;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;

class SqliteRecordStoreTest extends BaseRecordStoreTestCase {
  @TempDir
  Path dir;

  private final AtomicInteger files = new AtomicInteger();
  private final Map<RecordStore, Path> paths = new IdentityHashMap<>();

  /** NORMAL sync keeps the suite quick; durability across a kill is the crash test's job. */
  static SqliteStoreConfig quick() {
    return SqliteStoreConfig.builder().synchronousFull(false).build();
  }

  @Override
  protected RecordStore newStore() {
    Path file = dir.resolve("store-" + files.incrementAndGet() + ".db");
    RecordStore s = SqliteRecordStore.open(file, quick());
    paths.put(s, file);
    return s;
  }

  @Override
  protected boolean supportsReopen() {
    return true;
  }

  @Override
  protected RecordStore reopen(RecordStore store) {
    Path file = paths.remove(store);
    store.close();
    RecordStore s = SqliteRecordStore.open(file, quick());
    paths.put(s, file);
    return s;
  }
}
