package dev.lychee.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.NodeKind;
import dev.lychee.api.ScoredId;
import dev.lychee.api.TurnRange;
import dev.lychee.api.spi.VectorIndex;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jdbi.v3.core.statement.Query;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the background encoder's writes of one segment send (round nineteen): its record and node
 * vectors in one statement, and its merged nodes rewritten through the rows the merge locked.
 */
class SegmentWritesTest {
  private CountingDataSource counting;
  private String schema;
  private PostgresDatabase db;
  private PostgresVectorIndex index;

  @BeforeEach
  void open() {
    counting = new CountingDataSource(TestPostgres.get().url());
    // one pooled connection: a commit mode leaking out of a statement would reach the next one
    schema = TestPostgres.freshSchema();
    db = PostgresDatabase.open(counting, PostgresStoreConfig.builder().maxPoolSize(1).schema(schema).build());
    db.acquire();
    index = new PostgresVectorIndex(db);
  }

  @AfterEach
  void close() {
    index.close();
    db.release();
  }

  /**
   * A segment's vectors of three kinds: one statement in autocommit (before, one per kind), with no
   * flush wait of its own and the connection back at the server's commit mode after it; each kind
   * found by search, a removed id's tombstone cleared when it is written again, and each kind's head
   * moved, so another instance's copy catches up with all of them.
   */
  @Test
  void aSegmentsVectorsOfEveryKindAreOneStatement() {
    index.upsert("ns", VectorIndex.RECORDS, Map.of("r0", new float[] {1, 0, 0}));
    index.remove("ns", VectorIndex.RECORDS, List.of("r0"));
    counting.drain();
    Map<String, Map<String, float[]>> batch = new LinkedHashMap<>();
    batch.put(VectorIndex.RECORDS, Map.of("r0", new float[] {0, 0, 1}, "r1", new float[] {1, 0, 0}));
    batch.put(VectorIndex.nodes(NodeKind.ENTITY), Map.of("e1", new float[] {0, 1, 0}));
    batch.put(VectorIndex.nodes(NodeKind.TAG), Map.of("t1", new float[] {0, 0, 1}, "t2", new float[] {0.6f, 0.8f, 0}));
    index.upsertAll("ns", batch);
    List<String> sent = counting.drain();
    assertThat(sent).as("statements sent: %s", sent).hasSize(1).noneMatch("COMMIT"::equals);
    assertThat(sent).noneMatch(sql -> sql.toUpperCase(Locale.ROOT).startsWith("SET"));
    String mode = db.read(h -> h.createQuery("SHOW synchronous_commit").mapTo(String.class).one());
    assertThat(mode).isEqualTo("on");

    assertThat(index.search("ns", VectorIndex.RECORDS, new float[] {0, 0, 1}, 2, null)).extracting(ScoredId::id)
        .containsExactly("r0", "r1");
    assertThat(index.search("ns", VectorIndex.nodes(NodeKind.ENTITY), new float[] {0, 1, 0}, 5, null))
        .extracting(ScoredId::id)
        .containsExactly("e1");
    assertThat(index.search("ns", VectorIndex.nodes(NodeKind.TAG), new float[] {0, 1, 0}, 5, null))
        .extracting(ScoredId::id)
        .containsExactly("t2", "t1");
    int tombstones = db.read(h -> h.createQuery("SELECT COUNT(*) FROM vector_tombstones").mapTo(Integer.class).one());
    assertThat(tombstones).isZero();
    try (PostgresVectorIndex other = new PostgresVectorIndex(db)) {
      assertThat(other.size("ns", VectorIndex.RECORDS)).isEqualTo(2);
      assertThat(other.size("ns", VectorIndex.nodes(NodeKind.TAG))).isEqualTo(2);
    }
    // each kind's rows carry that kind's new change number, as one statement per kind would
    List<Long> heads = db.read(h -> h.createQuery("SELECT h.seq - MAX(v.seq) FROM vector_heads h JOIN vectors v"
        + " ON v.namespace = h.namespace AND v.kind = h.kind GROUP BY h.kind, h.seq").mapTo(Long.class).list());
    assertThat(heads).hasSize(3).containsOnly(0L);
  }

  /**
   * A kind whose index holds another dimension refuses the whole batch: no kind is written and no
   * head moves (a statement per kind wrote the kinds before the refused one).
   */
  @Test
  void aDimensionClashInOneKindWritesNoKind() {
    index.upsert("ns", VectorIndex.RECORDS, Map.of("r0", new float[] {1, 0, 0}));
    List<Long> before = heads();
    Map<String, Map<String, float[]>> batch = new LinkedHashMap<>();
    batch.put(VectorIndex.nodes(NodeKind.ENTITY), Map.of("e1", new float[] {0, 1}));
    batch.put(VectorIndex.RECORDS, Map.of("r1", new float[] {1, 0}));
    batch.put(VectorIndex.nodes(NodeKind.TAG), Map.of("t1", new float[] {0, 1}));
    assertThatThrownBy(() -> index.upsertAll("ns", batch)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + VectorIndex.RECORDS + "'").hasMessageContaining("dimension 2")
        .hasMessageContaining("holds dimension 3");
    assertThat(index.size("ns", VectorIndex.nodes(NodeKind.ENTITY))).isZero();
    assertThat(index.size("ns", VectorIndex.nodes(NodeKind.TAG))).isZero();
    assertThat(index.size("ns", VectorIndex.RECORDS)).isEqualTo(1);
    assertThat(heads()).isEqualTo(before);
  }

  private List<Long> heads() {
    return db.read(h -> h.createQuery("SELECT seq FROM vector_heads ORDER BY kind").mapTo(Long.class).list());
  }

  /**
   * Nodes merged into stored rows are rewritten through the row the merge's locking read found
   * ({@code ctid}): on a table the planner has no statistics of, as a fresh database's is until
   * autovacuum's first analyse, the rewrite is one tuple look-up per row (a parameterised TID scan).
   * By (namespace, id) the server planned it on {@code nodes_by_change}, reading every row of the
   * namespace for each merged node. Since round twenty-one the rewrite of all merged rows is one
   * statement, sent with the inserts in one round trip after the locking read's; since round
   * twenty-two its text is the same for any number of rows, so the plan checked is the generic one
   * the server keeps for the driver's prepared statement.
   */
  @Test
  void aMergedNodeIsRewrittenThroughTheRowItsMergeLocked() {
    NodeTable nodes = new NodeTable();
    stored(nodes, 2000);
    counting.drain();
    db.write(h -> {
      nodes.rows.putAll(h, List.of(node("k7", List.of("r2000")), node("k8", List.of("r8")), node("new", List.of("r2001"))));
      return null;
    });
    List<String> sent = counting.drain();
    assertThat(sent).as(String.join("\n", sent)).hasSize(3);
    assertThat(sent.get(0)).startsWith("SELECT").contains("FOR UPDATE");
    assertThat(sent.get(1)).startsWith("INSERT INTO nodes").containsOnlyOnce("UPDATE nodes AS t");
    String plan = db.write(h -> {
      String ctid = h.createQuery("SELECT CAST(ctid AS text) FROM nodes WHERE namespace = 'ns' AND id = :id")
          .bind("id", node("k9", List.of()).id()).mapTo(String.class).one();
      RowArrays rows = new RowArrays();
      for (int i = 0; i < 2; i++) {
        rows.bind("namespace", "ns").bind("id", "x" + i).bind("kind", "ENTITY").bind("key", "k").bind("label", "k")
            .bind("search_text", "k").bind("record_ids_base", "[]").bind("record_ids_tail", "[]").bind("sessions", "[]").bind("entities", "[]")
            .bind("tags", "[]").day("span_start", null).day("span_end", null).bind("has_span", false)
            .bind("turn_ranges", "[]").bind("row_ctid", ctid);
      }
      // the plan the server keeps for the driver's prepared statement, whatever the row count
      h.execute("SET LOCAL plan_cache_mode = force_generic_plan");
      h.execute("PREPARE rewrite_probe AS " + positional(nodes.rows.rewriteAll(rows)));
      String out = String.join("\n", h.createQuery("EXPLAIN EXECUTE rewrite_probe('{ns,ns}', '{x0,x1}', '{ENTITY,ENTITY}',"
          + " '{k,k}', '{k,k}', '{k,k}', '{[],[]}', '{[],[]}', '{[],[]}', '{[],[]}', '{[],[]}', '{NULL,NULL}', '{NULL,NULL}',"
          + " '{f,f}', '{[],[]}', '{\"" + ctid + "\",\"" + ctid + "\"}')").mapTo(String.class).list());
      h.execute("DEALLOCATE rewrite_probe");
      return out;
    });
    assertThat(plan).as(plan).contains("Tid Scan").doesNotContain("nodes_by_change");

    EvidenceNode merged = db.read(h -> nodes.rows.byIds(h, "ns", List.of(node("k7", List.of()).id()))).get(0);
    assertThat(merged.recordIds()).containsExactly("r7", "r2000");
    List<String> ids = db.read(h -> nodes.rows.ids(h, "ns"));
    assertThat(ids).hasSize(2001).endsWith(node("new", List.of()).id());
  }

  /**
   * The merge's locking read looks its ids up rather than testing every row of the namespace
   * against the whole id array: on a table without planner statistics, in the generic plan the
   * driver's prepared statement gets, {@code id = ANY(:ids)} was a filter over every node of the
   * namespace (round twenty-one: 10.7 ms per segment in a LoCoMo ingest on a loaded machine).
   */
  @Test
  void theMergesLockingReadDoesNotFilterTheNamespaceByTheIdArray() {
    NodeTable nodes = new NodeTable();
    List<EvidenceNode> many = stored(nodes, 2000);
    List<String> ids = many.subList(0, 60).stream().map(EvidenceNode::id).toList();
    String plan = db.write(h -> {
      h.execute("SET LOCAL plan_cache_mode = force_generic_plan");
      h.execute("PREPARE lock_probe(text, text[]) AS "
          + nodes.rows.lockSql().replace(":ns", "$1").replace(":ids", "$2"));
      String out = String.join("\n", h.createQuery("EXPLAIN ANALYZE EXECUTE lock_probe('ns', '{"
          + String.join(",", ids) + "}')").mapTo(String.class).list());
      h.execute("DEALLOCATE lock_probe");
      return out;
    });
    assertThat(plan).as(plan).doesNotContain("Rows Removed by Filter").doesNotContain("Join Filter")
        .contains("rows=60 loops=1");
    List<String> locked = db.write(h -> h.createQuery(nodes.rows.lockSql()).bind("ns", "ns")
        .bindArray("ids", String.class, ids).map((rs, ctx) -> rs.getString("id")).list());
    // in the server's order of ids, as every writer locks them
    assertThat(locked).containsExactlyElementsOf(db.read(h -> h.createQuery("SELECT x FROM unnest(:ids) AS x ORDER BY x")
        .bindArray("ids", String.class, ids).mapTo(String.class).list()));
  }

  /**
   * A row another writer inserts and commits between a put's locking read and its pipelined insert
   * is not overwritten: the insert skips it, and the put merges into it one by one afterwards.
   */
  @Test
  void aRowInsertedByAnotherWriterAfterTheLockingReadIsMergedInto() {
    NodeTable nodes = new NodeTable();
    PostgresDatabase other = PostgresDatabase.open(new CountingDataSource(TestPostgres.get().url()),
        PostgresStoreConfig.builder().maxPoolSize(1).schema(schema).build());
    other.acquire();
    try {
      db.write(h -> {
        MergingRows<EvidenceNode>.Put put = nodes.rows.put(List.of(node("k1", List.of("r1")), node("k2", List.of("r2"))));
        Pipeline locks = new Pipeline();
        put.lock(locks);
        locks.run(h);
        other.write(o -> {
          nodes.rows.putAll(o, List.of(node("k1", List.of("r9"))));
          return null;
        });
        MergingRows.writeInTurn(h, List.of(put));
        return null;
      });
    } finally {
      other.release();
    }
    List<EvidenceNode> stored = db.read(h -> nodes.rows.all(h, "ns"));
    assertThat(stored).extracting(EvidenceNode::key).containsExactly("k1", "k2");
    assertThat(stored.get(0).recordIds()).containsExactly("r9", "r1");
    assertThat(stored.get(1).recordIds()).containsExactly("r2");
  }

  /** {@code sql} with its named parameters numbered ({@code $1}, ...) in the order each first occurs. */
  private static String positional(String sql) {
    Map<String, Integer> numbers = new LinkedHashMap<>();
    return Params.PARAMETER.matcher(sql)
        .replaceAll(m -> "\\$" + numbers.computeIfAbsent(m.group(1), n -> numbers.size() + 1));
  }

  /** Nodes k0 to k{n - 1}, each linking record r{i}, stored in one transaction. */
  private List<EvidenceNode> stored(NodeTable nodes, int n) {
    List<EvidenceNode> many = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      many.add(node("k" + i, List.of("r" + i)));
    }
    db.write(h -> {
      nodes.rows.putAll(h, many);
      return null;
    });
    return many;
  }

  private static EvidenceNode node(String key, List<String> recordIds) {
    return new EvidenceNode(null, "ns", NodeKind.ENTITY, key, key, key, recordIds, List.of("s1"), List.of(key),
        List.of(), null, List.of(new TurnRange("s1", 0, 3)));
  }
}
