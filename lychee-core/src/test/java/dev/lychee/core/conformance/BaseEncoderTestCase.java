package dev.lychee.core.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.CloseReason;
import dev.lychee.api.Encoding;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.RawTurn;
import dev.lychee.api.ReferenceContext;
import dev.lychee.api.Role;
import dev.lychee.api.Segment;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.Encoder;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Conformance suite of the {@link Encoder} contract: records cite only turns of their segment (at
 * least one each), carry non-blank text and the segment's namespace and session, are unique by id,
 * never copy facts from the reference context, and the encoder is thread-safe. Implementations
 * supply {@link #newEncoder()}; LLM-backed ones plug in a chat model that answers every segment.
 */
public abstract class BaseEncoderTestCase {

  protected static final String NS = "conformance";
  protected static final LocalDateTime DATE = LocalDateTime.of(2024, 2, 14, 18, 30);

  /** A fresh encoder. */
  protected abstract Encoder newEncoder();

  protected Encoder encoder;

  @BeforeEach
  void createEncoder() {
    encoder = newEncoder();
  }

  /** A segment of one session, turns alternating between two named speakers, from index {@code first}. */
  protected static Segment segment(String session, int first, String... texts) {
    List<RawTurn> turns = new ArrayList<>();
    for (int i = 0; i < texts.length; i++) {
      turns.add(new RawTurn(NS, TurnRef.of(session, first + i), Role.USER, i % 2 == 0 ? "Ada" : "Bruno",
          texts[i], DATE));
    }
    return new Segment(NS, session, turns, turns.size(), 100, CloseReason.SEMANTIC_BOUNDARY, 1.4, 0.6);
  }

  protected Segment informative(String session, int first) {
    return segment(session, first,
        "I moved to Lisbon last month for a new job at a robotics company.",
        "That's exciting! My brother Carlo works in robotics too, at a startup in Porto.",
        "I started learning Portuguese two weeks ago and I practise every morning.",
        "I adopted a rescue cat named Pixel yesterday.");
  }

  @Test
  void everyRecordCitesOnlyTurnsOfItsSegment() {
    Segment s = informative("s1", 40);
    Encoding e = encoder.encode(s, ReferenceContext.EMPTY);
    assertThat(e.records()).isNotEmpty();
    for (MemoryRecord r : e.records()) {
      assertThat(r.evidence()).isNotEmpty();
      assertThat(r.evidence()).allSatisfy(t -> {
        assertThat(t.session()).isEqualTo("s1");
        assertThat(t.index()).isBetween(s.firstIndex(), s.lastIndex());
      });
      assertThat(r.namespace()).isEqualTo(NS);
      assertThat(r.session()).isEqualTo("s1");
      assertThat(r.text()).isNotBlank();
    }
  }

  @Test
  void recordIdsAreUniqueAndResultFieldsPresent() {
    Encoding e = encoder.encode(informative("s1", 0), ReferenceContext.EMPTY);
    assertThat(e.records()).extracting(MemoryRecord::id).doesNotHaveDuplicates();
    assertThat(e.usage()).isNotNull();
    assertThat(e.warnings()).isNotNull();
    assertThat(e.note()).isNotNull();
    assertThat(e.inputTokens()).isNotNegative();
  }

  @Test
  void referenceContextIsNeverASourceOfFacts() {
    ReferenceContext ctx = new ReferenceContext("Zebulon is Ada's neighbour.",
        List.of("Zebulon owns a purple submarine."));
    Encoding e = encoder.encode(informative("s1", 0), ctx);
    assertThat(e.records()).noneMatch(r -> r.text().contains("submarine"));
  }

  @Test
  void smallTalkOnlySegmentDoesNotFail() {
    Encoding e = encoder.encode(segment("s1", 0, "Hi!", "Hello! See you soon!"), ReferenceContext.EMPTY);
    assertThat(e.records()).allSatisfy(r -> assertThat(r.evidence()).isNotEmpty());
  }

  @Test
  void sameSegmentSameRecords() {
    Segment s = informative("s1", 0);
    List<String> first = encoder.encode(s, ReferenceContext.EMPTY).records().stream().map(MemoryRecord::text).toList();
    List<String> second = encoder.encode(s, ReferenceContext.EMPTY).records().stream().map(MemoryRecord::text).toList();
    assertThat(second).isEqualTo(first);
  }

  @Test
  void concurrentEncodingMatchesSequential() throws Exception {
    List<Segment> segments = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      segments.add(informative("s" + i, i * 10));
    }
    List<List<String>> sequential = new ArrayList<>();
    for (Segment s : segments) {
      sequential.add(encoder.encode(s, ReferenceContext.EMPTY).records().stream().map(MemoryRecord::id).toList());
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<List<String>>> futures = new ArrayList<>();
      for (Segment s : segments) {
        futures.add(pool.submit(() -> encoder.encode(s, ReferenceContext.EMPTY).records().stream()
            .map(MemoryRecord::id).toList()));
      }
      for (int i = 0; i < segments.size(); i++) {
        assertThat(futures.get(i).get(60, TimeUnit.SECONDS)).isEqualTo(sequential.get(i));
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void hasAName() {
    assertThat(encoder.name()).isNotBlank();
  }
}
