package dev.lychee.core.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.inject.AbstractModule;
import com.google.inject.Module;
import dev.lychee.api.Encoding;
import dev.lychee.api.RawTurn;
import dev.lychee.api.ReferenceContext;
import dev.lychee.api.Role;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.Turn;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.Encoder;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.encode.EncodingConfig;
import dev.lychee.core.encode.OfflineEncoder;
import dev.lychee.core.ingest.IngestConfig;
import dev.lychee.core.testing.HashingEmbedder;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * SIGKILL while the background queue holds segments, for any durable backend. The child appends
 * unindexed turns to two sessions with background encoding (one encoder thread, each encoding
 * slowed down, and stalled for good after the first few, so that the queue fills however slow the
 * appends are on a loaded machine) and reports every returned append with the queue depth;
 * the parent kills it while segments are queued, then reopens: every acknowledged turn is stored
 * once, every closed segment reaches ENCODED after the resume, and no segment the child had
 * encoded is encoded again.
 */
public final class BackgroundCrashScenario {
  static final String NS = "agent";
  static final Duration ENCODE_DELAY = Duration.ofMillis(40);
  /**
   * Encodings after which the child's encoder stalls until the child is killed: with a delay alone,
   * a loaded machine could append slower than the encoder drains, the queue never reached the
   * depth the kill waits for, and the parent read the child's output for ever.
   */
  static final int STALL_AFTER = 4;
  /** How long the parent reads the child's output before it kills the child and fails. */
  static final Duration CHILD_DEADLINE = Duration.ofSeconds(150);

  private BackgroundCrashScenario() {}

  /** The offline encoder, slowed down (child) or counting what it encodes (parent). */
  private static final class WatchedEncoder implements Encoder {
    final OfflineEncoder inner = new OfflineEncoder(EncodingConfig.defaults());
    final Duration delay;
    final int stallAfter;
    final List<String> encoded = new CopyOnWriteArrayList<>();

    WatchedEncoder(Duration delay, int stallAfter) {
      this.delay = delay;
      this.stallAfter = stallAfter;
    }

    @Override
    public Encoding encode(Segment segment, ReferenceContext context) {
      encoded.add(segment.id());
      if (!delay.isZero()) {
        try {
          Thread.sleep(encoded.size() > stallAfter ? Long.MAX_VALUE : delay.toMillis());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return inner.encode(segment, context);
    }

    @Override
    public String name() {
      return "offline";
    }
  }

  private static Lychee open(Module store, WatchedEncoder encoder, boolean resume) {
    LycheeConfig config = LycheeConfig.builder().segmenter("turn").ingest(IngestConfig.builder()
        .encodeMode(IngestConfig.EncodeMode.ASYNC).concurrency(1).resumeOnOpen(resume).build()).build();
    return Lychee.create(config, store, new AbstractModule() {
      @Override
      protected void configure() {
        bind(Embedder.class).toInstance(new HashingEmbedder());
        bind(Encoder.class).toInstance(encoder);
      }
    });
  }

  /** The child's loop: run from a {@code main} with the backend's module; never returns. */
  public static void runChild(Module store) {
    PrintStream out = System.out;
    Lychee lychee = open(store, new WatchedEncoder(ENCODE_DELAY, STALL_AFTER), false);
    LocalDateTime date = LocalDateTime.of(2024, 3, 1, 10, 0);
    for (int b = 0; ; b++) {
      String session = "s" + (b % 2);
      List<Turn> turns = List.of(
          new Turn(Role.USER, "Alice", "Batch " + b + ": I adopted a kitten named Tok" + b + " and I hike a lot.", -1, null),
          new Turn(Role.ASSISTANT, null, "Batch " + b + ": Tok" + b + " sounds like a lovely companion.", -1, null));
      int stored = lychee.append(NS, session, date, turns).turnsStored();
      out.println("T " + session + " " + stored + " " + lychee.status(NS).queued());
      out.flush();
    }
  }

  /**
   * Starts {@code main} in a child JVM with {@code arg}, kills it with SIGKILL once at least
   * {@code minAppends} appends returned and the last one left at least 3 segments queued.
   *
   * @return acknowledged turns per session
   */
  public static Map<String, Integer> runAndKill(Class<?> main, String arg, Path errFile, int minAppends) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process child = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"), main.getName(), arg)
        .redirectError(errFile.toFile()).start();
    // a blocked read ignores the test's timeout: past the deadline the child dies, its output ends
    CompletableFuture.delayedExecutor(CHILD_DEADLINE.toSeconds(), TimeUnit.SECONDS).execute(child::destroyForcibly);
    Map<String, Integer> acked = new HashMap<>();
    int appends = 0;
    int depth = 0;
    try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        String[] p = line.split(" ");
        if (p.length != 4 || !p[0].equals("T")) {
          continue;
        }
        acked.merge(p[1], Integer.parseInt(p[2]), Integer::sum);
        depth = Integer.parseInt(p[3]);
        if (++appends >= minAppends && depth >= 3) {
          break;
        }
      }
      child.destroyForcibly();
      assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    } finally {
      child.destroyForcibly();
    }
    assertThat(appends).as("appends the child acknowledged within %s (its stderr: %s)", CHILD_DEADLINE, errFile).isGreaterThanOrEqualTo(minAppends);
    assertThat(depth).as("the queue held segments when the child was killed").isGreaterThanOrEqualTo(3);
    return acked;
  }

  /**
   * Reopens the backend ({@code store} makes a fresh module on the same files) and checks the
   * guarantees.
   */
  public static void verifyAfterRestart(Function<Void, Module> store, Map<String, Integer> acked) {
    Set<String> encodedByChild = new HashSet<>();
    int pendingAtKill;
    try (Lychee before = open(store.apply(null), new WatchedEncoder(Duration.ZERO, Integer.MAX_VALUE), false)) {
      List<StoredSegment> segments = before.store().segments(NS);
      segments.stream().filter(s -> s.state() == SegmentState.ENCODED).forEach(s -> encodedByChild.add(s.segment().id()));
      pendingAtKill = (int) segments.stream().filter(s -> s.state() == SegmentState.PENDING).count();
    }
    assertThat(pendingAtKill).as("segments were left pending by the kill").isPositive();

    WatchedEncoder parent = new WatchedEncoder(Duration.ZERO, Integer.MAX_VALUE);
    try (Lychee lychee = open(store.apply(null), parent, true)) {
      // the open rebuilt the turn vectors the kill lost (Lucene commits them a second late),
      // without encodePending (review C F3)
      assertThat(lychee.vectors().size(NS, dev.lychee.api.spi.VectorIndex.TURNS))
          .isEqualTo(lychee.store().countTurns(NS));
      assertThat(lychee.awaitIdle(NS, Duration.ofSeconds(60))).isTrue();
      for (String session : List.of("s0", "s1")) {
        List<RawTurn> turns = lychee.store().turns(NS, session);
        // every acknowledged turn once, contiguous, whole appends only (or one more unacknowledged)
        assertThat(turns.size()).as(session).isBetween(acked.getOrDefault(session, 0), acked.getOrDefault(session, 0) + 2);
        assertThat(turns.size() % 2).isZero();
        for (int i = 0; i < turns.size(); i++) {
          assertThat(turns.get(i).index()).isEqualTo(i);
        }
        lychee.flush(NS, session);
      }
      assertThat(lychee.awaitIdle(NS, Duration.ofSeconds(60))).isTrue();
      List<StoredSegment> segments = lychee.store().segments(NS);
      assertThat(segments).allSatisfy(s -> assertThat(s.state()).as(s.segment().id()).isEqualTo(SegmentState.ENCODED));
      List<Integer> covered = new ArrayList<>();
      segments.forEach(s -> s.segment().turns().forEach(t -> covered.add(t.session().equals("s0") ? t.index() : -1 - t.index())));
      assertThat(covered).as("every turn in exactly one segment").doesNotHaveDuplicates()
          .hasSize((int) lychee.store().countTurns(NS));
      assertThat(parent.encoded).as("none encoded twice").doesNotHaveDuplicates();
      // the child may be killed before its first encoding ends (AssertJ refuses an empty set here)
      if (!encodedByChild.isEmpty()) {
        assertThat(parent.encoded).as("nothing the child encoded is encoded again").doesNotContainAnyElementsOf(encodedByChild);
      }
      assertThat(parent.encoded.size()).isGreaterThanOrEqualTo(pendingAtKill);
      assertThat(lychee.store().records(NS)).allSatisfy(r -> assertThat(segments.stream()
          .anyMatch(s -> s.segment().id().equals(r.segmentId()))).isTrue());
    }
  }
}
