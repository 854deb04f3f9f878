package dev.lychee.embed.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.spi.EmbeddingPriority;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Order, not timing: with a model stand-in that blocks on chosen texts, a foreground batch that
 * arrives while a background batch is under way runs before the background batch's remaining
 * texts.
 */
class BatchSchedulerTest {
  /** Long enough that no background text is ever let through by the wait bound in these tests. */
  private static final long NO_BOUND = TimeUnit.MINUTES.toNanos(10);

  private final ExecutorService callers = Executors.newFixedThreadPool(3);
  private final ExecutorService pool = Executors.newFixedThreadPool(1);
  private final List<String> events = new CopyOnWriteArrayList<>();
  private final Map<String, CountDownLatch> gates = new ConcurrentHashMap<>();
  /** A test clock for the caller window, in nanoseconds. */
  private final AtomicLong now = new AtomicLong();

  @AfterEach
  void stop() {
    gates.values().forEach(CountDownLatch::countDown);
    callers.shutdownNow();
    pool.shutdownNow();
  }

  /** Records start and end of every text; blocks on texts that have a gate until it opens. */
  private final Function<String, float[]> model = text -> {
    events.add("start " + text);
    CountDownLatch gate = gates.get(text);
    if (gate != null) {
      try {
        gate.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    events.add("end " + text);
    return new float[] {text.hashCode()}; // exact in a float for these short texts
  };

  private CountDownLatch block(String text) {
    CountDownLatch gate = new CountDownLatch(1);
    gates.put(text, gate);
    return gate;
  }

  private Future<float[][]> submit(BatchScheduler scheduler, List<String> texts, EmbeddingPriority priority) {
    return callers.submit(() -> scheduler.run(texts, priority, model));
  }

  private Future<float[][]> submit(BatchScheduler scheduler, List<String> texts, EmbeddingPriority priority,
      int backgroundThreads) {
    return callers.submit(() -> scheduler.run(texts, priority, backgroundThreads, model));
  }

  private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not reached within 30 s");
      }
      Thread.sleep(2);
    }
  }

  private static List<Integer> firsts(float[][] vectors) {
    return java.util.Arrays.stream(vectors).map(v -> (int) v[0]).toList();
  }

  private int at(String event) {
    assertThat(events).contains(event);
    return events.indexOf(event);
  }

  @Test
  void aForegroundBatchRunsBeforeTheRestOfABackgroundBatch() throws Exception {
    BatchScheduler scheduler = new BatchScheduler(pool, 1, NO_BOUND);
    CountDownLatch b1 = block("b1");
    CountDownLatch f1 = block("f1");
    Future<float[][]> background = submit(scheduler, List.of("b1", "b2", "b3"), EmbeddingPriority.BACKGROUND);
    awaitTrue(() -> events.contains("start b1"));
    Future<float[][]> foreground = submit(scheduler, List.of("f1"), EmbeddingPriority.FOREGROUND);
    awaitTrue(() -> events.contains("start f1"));

    b1.countDown(); // the text in the model ends; the next one must wait for the foreground batch
    awaitTrue(() -> scheduler.waitingBackground() == 1 || events.contains("start b2"));
    f1.countDown();

    assertThat(foreground.get(30, TimeUnit.SECONDS)[0]).containsExactly((float) "f1".hashCode());
    float[][] vectors = background.get(30, TimeUnit.SECONDS);
    assertThat(at("start b2")).isGreaterThan(at("end f1"));
    assertThat(at("start b3")).isGreaterThan(at("end f1"));
    assertThat(firsts(vectors)).containsExactly("b1".hashCode(), "b2".hashCode(), "b3".hashCode());
    assertThat(scheduler.runningForeground()).isZero();
  }

  @Test
  void backgroundHelpersLeaveThePoolToTheForegroundBatch() throws Exception {
    // two threads per batch: the caller and one helper from a pool of one thread
    BatchScheduler scheduler = new BatchScheduler(pool, 2, NO_BOUND);
    CountDownLatch b1 = block("b1");
    CountDownLatch b2 = block("b2");
    CountDownLatch f1 = block("f1");
    Future<float[][]> background =
        submit(scheduler, List.of("b1", "b2", "b3", "b4"), EmbeddingPriority.BACKGROUND);
    awaitTrue(() -> events.contains("start b1") && events.contains("start b2"));
    Future<float[][]> foreground = submit(scheduler, List.of("f1", "f2"), EmbeddingPriority.FOREGROUND);
    awaitTrue(() -> events.contains("start f1"));

    // the caller of the foreground batch is held in f1, so only the pool's thread can take f2,
    // and it can only do so once the background helper gives the thread back
    b1.countDown();
    b2.countDown();
    awaitTrue(() -> events.contains("end f2"));
    f1.countDown();

    foreground.get(30, TimeUnit.SECONDS);
    float[][] vectors = background.get(30, TimeUnit.SECONDS);
    assertThat(at("start b3")).isGreaterThan(at("end f1"));
    assertThat(at("start b4")).isGreaterThan(at("end f1"));
    assertThat(firsts(vectors)).containsExactly("b1".hashCode(), "b2".hashCode(), "b3".hashCode(), "b4".hashCode());
  }

  @Test
  void backgroundBatchesStillUseHelpersWhenNoForegroundRuns() throws Exception {
    BatchScheduler scheduler = new BatchScheduler(pool, 2, NO_BOUND);
    CountDownLatch b1 = block("b1");
    Future<float[][]> background = submit(scheduler, List.of("b1", "b2", "b3"), EmbeddingPriority.BACKGROUND);
    // with b1 held by one thread, the other one takes b2 and b3
    awaitTrue(() -> events.contains("end b3"));
    b1.countDown();
    assertThat(background.get(30, TimeUnit.SECONDS).length).isEqualTo(3);
  }

  @Test
  void aForegroundBatchStartsWhileBackgroundWorkIsHeldToItsThreads() throws Exception {
    // two threads per batch, but at most one background text in the model: the second core stays
    // free, so a foreground text starts while the background text runs (round eighteen)
    BatchScheduler scheduler = new BatchScheduler(pool, 2, NO_BOUND);
    CountDownLatch b1 = block("b1");
    Future<float[][]> background =
        submit(scheduler, List.of("b1", "b2", "b3"), EmbeddingPriority.BACKGROUND, 1);
    awaitTrue(() -> events.contains("start b1"));
    Future<float[][]> foreground = submit(scheduler, List.of("f1"), EmbeddingPriority.FOREGROUND, 1);

    assertThat(foreground.get(30, TimeUnit.SECONDS)[0]).containsExactly((float) "f1".hashCode());
    // the foreground text ran while b1 was in the model, and no other background text started
    assertThat(events).doesNotContain("end b1", "start b2", "start b3");
    assertThat(scheduler.runningBackground()).isEqualTo(1);
    b1.countDown();
    assertThat(firsts(background.get(30, TimeUnit.SECONDS)))
        .containsExactly("b1".hashCode(), "b2".hashCode(), "b3".hashCode());
    assertThat(scheduler.runningBackground()).isZero();
  }

  @Test
  void backgroundBatchesShareTheirThreads() throws Exception {
    // two background callers with one background thread between them: the second batch's texts
    // wait for the first batch's text to leave the model, whatever the threads per batch
    BatchScheduler scheduler = new BatchScheduler(pool, 2, NO_BOUND);
    CountDownLatch a1 = block("a1");
    Future<float[][]> first = submit(scheduler, List.of("a1", "a2"), EmbeddingPriority.BACKGROUND, 1);
    awaitTrue(() -> events.contains("start a1"));
    Future<float[][]> second = submit(scheduler, List.of("c1"), EmbeddingPriority.BACKGROUND, 1);
    awaitTrue(() -> scheduler.waitingBackground() == 1);
    assertThat(events).containsExactly("start a1");

    a1.countDown();
    assertThat(firsts(first.get(30, TimeUnit.SECONDS))).containsExactly("a1".hashCode(), "a2".hashCode());
    assertThat(firsts(second.get(30, TimeUnit.SECONDS))).containsExactly("c1".hashCode());
    // one text in the model at a time: every start follows the previous text's end
    for (int i = 1; i < events.size(); i += 2) {
      assertThat(events.get(i)).startsWith("end ");
      assertThat(events.get(i)).isEqualTo("end " + events.get(i - 1).substring("start ".length()));
    }
    assertThat(scheduler.runningBackground()).isZero();
    assertThat(scheduler.waitingBackground()).isZero();
  }

  @Test
  void withNoCallerAboutBackgroundTextsUseEveryThread() throws Exception {
    // the caller window (100 ns of a test clock) has passed since the scheduler started and no
    // foreground batch ran: the limit of one background text does not hold, so the helper works
    // beside the blocked caller
    BatchScheduler scheduler = new BatchScheduler(pool, 2, NO_BOUND, 100, now::get);
    now.set(1_000);
    CountDownLatch b1 = block("b1");
    Future<float[][]> background =
        submit(scheduler, List.of("b1", "b2", "b3"), EmbeddingPriority.BACKGROUND, 1);
    awaitTrue(() -> events.contains("end b3"));
    assertThat(events).doesNotContain("end b1");
    b1.countDown();
    assertThat(background.get(30, TimeUnit.SECONDS).length).isEqualTo(3);
    assertThat(scheduler.runningBackground()).isZero();
  }

  @Test
  void aForegroundBatchHoldsBackgroundToItsLimitForTheCallerWindow() throws Exception {
    BatchScheduler scheduler = new BatchScheduler(pool, 2, NO_BOUND, 100, now::get);
    now.set(1_000); // the window since the start has passed
    scheduler.run(List.of("f1"), EmbeddingPriority.FOREGROUND, 1, model);
    now.set(1_050); // within the window of the foreground batch that just ended
    CountDownLatch a1 = block("a1");
    Future<float[][]> first = submit(scheduler, List.of("a1"), EmbeddingPriority.BACKGROUND, 1);
    awaitTrue(() -> events.contains("start a1"));
    Future<float[][]> second = submit(scheduler, List.of("c1"), EmbeddingPriority.BACKGROUND, 1);
    // the second background text waits for the first to leave the model
    awaitTrue(() -> scheduler.waitingBackground() == 1);
    assertThat(events).doesNotContain("start c1");
    a1.countDown();
    first.get(30, TimeUnit.SECONDS);
    second.get(30, TimeUnit.SECONDS);
    assertThat(at("start c1")).isGreaterThan(at("end a1"));
  }

  @Test
  void aBackgroundLimitBelowOneIsRejected() {
    BatchScheduler scheduler = new BatchScheduler(pool, 2, NO_BOUND);
    assertThatThrownBy(() -> scheduler.run(List.of("a"), EmbeddingPriority.BACKGROUND, 0, model))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("backgroundThreads must be >= 1, was 0");
  }

  @Test
  void aBoundedWaitLetsABackgroundTextThrough() throws Exception {
    BatchScheduler scheduler = new BatchScheduler(pool, 1, TimeUnit.MILLISECONDS.toNanos(1));
    CountDownLatch f1 = block("f1");
    Future<float[][]> foreground = submit(scheduler, List.of("f1"), EmbeddingPriority.FOREGROUND);
    awaitTrue(() -> events.contains("start f1"));
    Future<float[][]> background = submit(scheduler, List.of("b1", "b2"), EmbeddingPriority.BACKGROUND);
    // the foreground batch never ends while the background one runs, which still completes
    assertThat(background.get(30, TimeUnit.SECONDS).length).isEqualTo(2);
    f1.countDown();
    foreground.get(30, TimeUnit.SECONDS);
  }

  @Test
  void theFirstFailureIsThrownAfterTheBatch() {
    BatchScheduler scheduler = new BatchScheduler(pool, 2, NO_BOUND);
    assertThatThrownBy(() -> scheduler.run(List.of("a", "boom", "c"), EmbeddingPriority.BACKGROUND, text -> {
      if (text.equals("boom")) {
        throw new IllegalStateException("model failed");
      }
      return new float[] {1};
    })).isInstanceOf(IllegalStateException.class).hasMessage("model failed");
  }

  @Test
  void textsAreTakenLongestFirstAndReturnedInTheCallersOrder() throws Exception {
    BatchScheduler scheduler = new BatchScheduler(pool, 1, NO_BOUND);
    List<String> texts = List.of("bb", "a", "dddd", "cc", "eee");
    List<String> taken = new CopyOnWriteArrayList<>();
    float[][] out = scheduler.run(texts, EmbeddingPriority.FOREGROUND, text -> {
      taken.add(text);
      return new float[] {text.hashCode()};
    });
    // a long text left for last would keep one core busy while the others idle
    assertThat(taken).containsExactly("dddd", "eee", "bb", "cc", "a");
    assertThat(firsts(out)).containsExactly("bb".hashCode(), "a".hashCode(), "dddd".hashCode(), "cc".hashCode(), "eee".hashCode());
  }
}
