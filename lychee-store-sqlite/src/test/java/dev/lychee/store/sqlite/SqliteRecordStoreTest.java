package dev.lychee.store.sqlite;

import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.conformance.BaseRecordStoreTestCase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
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
    RecordStore s = new SqliteRecordStore(SqliteDatabase.open(file, quick()));
    paths.put(s, file);
    return s;
  }

  private final List<VectorIndex> companions = new ArrayList<>();

  /** Vectors beside the rows, in the same file, as the Guice module wires them. */
  @Override
  protected VectorIndex companionIndex(RecordStore store) {
    VectorIndex v = new SqliteVectorIndex(((SqliteRecordStore) store).database());
    companions.add(v);
    return v;
  }

  @AfterEach
  void closeCompanions() {
    companions.forEach(VectorIndex::close);
  }

  @Override
  protected boolean supportsReopen() {
    return true;
  }

  @Override
  protected RecordStore reopen(RecordStore store) {
    Path file = paths.remove(store);
    store.close();
    RecordStore s = new SqliteRecordStore(SqliteDatabase.open(file, quick()));
    paths.put(s, file);
    return s;
  }
}
