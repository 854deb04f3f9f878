package dev.lychee.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.NodeKind;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.ScoredId;
import dev.lychee.api.SourceRole;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.ReadPoint;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.TextField;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.store.CheckedRecordStore;
import dev.lychee.core.testing.StoreWrites;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A read point on PostgreSQL ({@link HeadPoint}): two instances on one database, the reader's
 * statements counted at its driver. The reads inside one point see every write the other instance
 * committed before the point's first read and read no head of their own; a write committed after
 * it is seen by the next read outside the point and by the next point.
 */
class HeadPointTest {
  private static final String ENTITIES = VectorIndex.nodes(NodeKind.ENTITY);
  private static final String TAGS = VectorIndex.nodes(NodeKind.TAG);

  private CountingDataSource counting;
  private PostgresDatabase readerDb;
  private RecordStore reader;
  private PostgresVectorIndex readerVectors;
  private RecordStore writer;
  private PostgresVectorIndex writerVectors;

  @BeforeEach
  void open() {
    String schema = TestPostgres.freshSchema();
    counting = new CountingDataSource(TestPostgres.get().url());
    readerDb = PostgresDatabase.open(counting, PostgresStoreConfig.builder().maxPoolSize(2).schema(schema).build());
    reader = CheckedRecordStore.of(new PostgresRecordStore(readerDb));
    readerVectors = new PostgresVectorIndex(readerDb);
    PostgresDatabase writerDb = PostgresDatabase.open(TestPostgres.get().url(),
        PostgresStoreConfig.builder().maxPoolSize(2).schema(schema).build());
    writer = CheckedRecordStore.of(new PostgresRecordStore(writerDb));
    writerVectors = new PostgresVectorIndex(writerDb);
  }

  @AfterEach
  void close() {
    readerVectors.close();
    reader.close();
    writerVectors.close();
    writer.close();
  }

  private static RawTurn turn(int index, String text) {
    return new RawTurn("ns", new TurnRef("s1", index), Role.USER, "Amy", text, null);
  }

  private static MemoryRecord record(String id, String text) {
    return new MemoryRecord(id, "ns", MemoryType.FACT, text, List.of(), List.of(), TemporalScope.NONE,
        List.of(TurnRef.of("s1", 0)), "s1", "s1:0-0", SourceRole.USER, LocalDateTime.of(2023, 5, 7, 13, 0));
  }

  /** What a recall reads: turns by window and by search, records by id, vectors of two kinds. */
  private record Seen(List<RawTurn> window, List<ScoredId> turnHits, List<MemoryRecord> records,
      List<ScoredId> turnVectors, Map<String, List<List<ScoredId>>> nodeVectors) {}

  private Seen readAll() {
    return new Seen(reader.turns("ns", "s1", 0, 10),
        reader.searchText("ns", TextField.TURNS, "guitar", 10),
        reader.records("ns", List.of("r1", "r2")),
        readerVectors.search("ns", VectorIndex.TURNS, new float[] {1, 0}, 10, null),
        readerVectors.searchKinds("ns", List.of(ENTITIES, TAGS), List.of(new float[] {1, 0}), 10,
            null));
  }

  @Test
  void readsInsideAPointShareOneHeadStatementAndSeeWhatWasCommittedBeforeIt() {
    writer.appendTurns("ns", "s1", List.of(turn(0, "Amy plays the guitar")));
    StoreWrites.encode(writer, "ns", List.of(record("r1", "Amy plays the guitar")), List.of());
    writerVectors.upsert("ns", VectorIndex.TURNS, Map.of("episode:s1:0", new float[] {1, 0}));
    writerVectors.upsert("ns", ENTITIES, Map.of("amy", new float[] {1, 0}));
    // the copies are loaded once; from then on a read outside a point sends its own head first
    readAll();
    counting.drain();
    readAll();
    assertThat(counting.drain()).as("head reads outside a point").hasSize(5);

    ReadPoint point = reader.readPoint("ns");
    Seen first = point.call(() -> {
      Seen seen = readAll();
      List<String> sent = counting.drain();
      assertThat(sent).as("statements sent: %s", sent).hasSize(1);
      assertThat(sent.get(0)).contains("turn_heads").contains("row_heads").contains("vector_heads");

      // committed after the point's first read: not seen inside it, and nothing read again
      writer.appendTurns("ns", "s1", List.of(turn(1, "Amy sold her guitar")));
      StoreWrites.encode(writer, "ns", List.of(record("r2", "Amy sold her guitar")), List.of());
      writerVectors.upsert("ns", VectorIndex.TURNS, Map.of("episode:s1:1", new float[] {0.8f, 0.6f}));
      writerVectors.upsert("ns", TAGS, Map.of("music", new float[] {1, 0}));
      assertThat(readAll()).isEqualTo(seen);
      // another thread inside the same point reads at the same heads, without a statement
      assertThat(CompletableFuture.supplyAsync(() -> point.call(this::readAll)).join()).isEqualTo(seen);
      assertThat(counting.drain()).isEmpty();
      return seen;
    });
    assertThat(first.window()).extracting(RawTurn::index).containsExactly(0);
    assertThat(first.turnHits()).extracting(ScoredId::id).containsExactly("episode:s1:0");
    assertThat(first.records()).extracting(MemoryRecord::id).containsExactly("r1");
    assertThat(first.turnVectors()).extracting(ScoredId::id).containsExactly("episode:s1:0");
    assertThat(first.nodeVectors().get(TAGS)).containsExactly(List.of());

    // outside the point, and in the next one, every read sees the later writes
    Seen after = readAll();
    Seen next = reader.readPoint("ns").call(this::readAll);
    assertThat(next).isEqualTo(after);
    assertThat(after.window()).extracting(RawTurn::index).containsExactly(0, 1);
    assertThat(after.turnHits()).extracting(ScoredId::id).containsExactlyInAnyOrder("episode:s1:0", "episode:s1:1");
    assertThat(after.records()).extracting(MemoryRecord::id).containsExactly("r1", "r2");
    assertThat(after.turnVectors()).extracting(ScoredId::id).containsExactly("episode:s1:0", "episode:s1:1");
    assertThat(after.nodeVectors().get(TAGS).get(0)).extracting(ScoredId::id).containsExactly("music");
  }

  @Test
  void aPointCountsOnlyForItsOwnNamespaceAndTheInnermostPointWins() {
    writer.appendTurns("ns", "s1", List.of(turn(0, "Amy plays the guitar")));
    reader.turns("ns", "s1", 0, 10);
    List<RawTurn> seen = reader.readPoint("other").call(() -> {
      counting.drain();
      List<RawTurn> window = reader.turns("ns", "s1", 0, 10);
      assertThat(counting.drain()).as("a read of another namespace reads its own head").hasSize(1)
          .allMatch(sql -> sql.startsWith("SELECT epoch, seq FROM turn_heads"));
      return window;
    });
    assertThat(seen).extracting(RawTurn::index).containsExactly(0);

    ReadPoint outer = reader.readPoint("ns");
    outer.call(() -> {
      reader.turns("ns", "s1", 0, 10);
      writer.appendTurns("ns", "s1", List.of(turn(1, "Amy sold her guitar")));
      assertThat(reader.turns("ns", "s1", 0, 10)).as("at the outer point").extracting(RawTurn::index)
          .containsExactly(0);
      // a point entered inside another one reads at its own first read
      List<RawTurn> inner = reader.readPoint("ns").call(() -> reader.turns("ns", "s1", 0, 10));
      assertThat(inner).extracting(RawTurn::index).containsExactly(0, 1);
      // back in the outer point: its heads again, and the copy the inner point brought further is
      // read as it is (a point sees at least what was committed before it), without a statement
      counting.drain();
      assertThat(reader.turns("ns", "s1", 0, 10)).extracting(RawTurn::index).containsExactly(0, 1);
      assertThat(counting.drain()).isEmpty();
      return null;
    });
  }

  @Test
  void aNamespaceWithNothingStoredReadsAsEmptyInsideAPoint() {
    Seen seen = reader.readPoint("ns").call(this::readAll);
    assertThat(seen.window()).isEmpty();
    assertThat(seen.turnHits()).isEmpty();
    assertThat(seen.records()).isEmpty();
    assertThat(seen.turnVectors()).isEmpty();
  }
}
