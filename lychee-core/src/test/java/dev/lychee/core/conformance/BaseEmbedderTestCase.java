package dev.lychee.core.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.lychee.api.spi.Embedder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Conformance suite for {@link Embedder}: every implementation extends it and supplies {@link
 * #newEmbedder()}. It checks the contract written on the interface: dimension, unit length,
 * determinism (also across batch positions and threads), order, empty input, rejection of
 * null/blank text, tolerance of very long text, and (unless {@link #semantic()} is overridden to
 * {@code false}) that the model puts a paraphrase closer than an unrelated sentence.
 */
public abstract class BaseEmbedderTestCase {

  /** Texts on clearly different subjects, used wherever distinct inputs are needed. */
  protected static final List<String> TEXTS =
      List.of(
          "The kettle clicked off and she poured water over the tea leaves.",
          "Our flight to Lisbon was delayed by three hours because of fog.",
          "He repaired the bicycle chain with a borrowed tool kit.",
          "The quarterly report shows revenue growing by eight percent.",
          "My daughter started learning the violin last September.",
          "A thunderstorm knocked out the power in the whole neighbourhood.");

  protected Embedder embedder;

  /** A fresh embedder under test; called before every test. */
  protected abstract Embedder newEmbedder();

  /**
   * Whether the embedder carries meaning (a real model). Deterministic test doubles such as a
   * bag-of-words hasher return {@code false} and skip the semantic ranking checks.
   */
  protected boolean semantic() {
    return true;
  }

  /**
   * Largest allowed per-component difference between two embeddings of the same text. The
   * contract says "the same vector", so the default is exact equality.
   */
  protected double sameVectorTolerance() {
    return 0.0;
  }

  @BeforeEach
  void createEmbedder() {
    embedder = newEmbedder();
  }

  @AfterEach
  void closeEmbedder() throws Exception {
    if (embedder instanceof AutoCloseable closeable) {
      closeable.close();
    }
  }

  // ---------------------------------------------------------------- shape and length

  @Test
  void identifiesItself() {
    assertThat(embedder.dimension()).isPositive();
    assertThat(embedder.modelId()).isNotBlank();
    assertThat(embedder.profile()).isNotNull();
  }

  @Test
  void documentVectorsHaveTheDeclaredDimension() {
    List<float[]> vectors = embedder.embedDocuments(TEXTS);
    assertThat(vectors).hasSize(TEXTS.size());
    for (float[] v : vectors) {
      assertThat(v).hasSize(embedder.dimension());
    }
  }

  @Test
  void queryVectorsHaveTheDeclaredDimension() {
    assertThat(embedder.embedQuery("when did the flight leave?")).hasSize(embedder.dimension());
  }

  @Test
  void documentVectorsHaveUnitLength() {
    for (float[] v : embedder.embedDocuments(TEXTS)) {
      assertUnit(v);
    }
  }

  @Test
  void queryVectorsHaveUnitLength() {
    for (String t : TEXTS) {
      assertUnit(embedder.embedQuery(t));
    }
    for (float[] v : embedder.embedQueries(List.of("who fixed the bike?", "power cut"))) {
      assertUnit(v);
    }
  }

  @Test
  void vectorsAreFinite() {
    List<float[]> all = new ArrayList<>(embedder.embedDocuments(TEXTS));
    all.add(embedder.embedQuery("a question about tea"));
    for (float[] v : all) {
      for (float x : v) {
        assertThat(Float.isFinite(x)).as("component is finite").isTrue();
      }
    }
  }

  // ---------------------------------------------------------------- determinism and order

  @Test
  void sameDocumentGivesSameVectorAcrossCalls() {
    float[] first = embedder.embedDocuments(List.of(TEXTS.get(0))).get(0);
    float[] second = embedder.embedDocuments(List.of(TEXTS.get(0))).get(0);
    assertSame(first, second);
  }

  @Test
  void sameDocumentGivesSameVectorAtEveryBatchPosition() {
    String text = TEXTS.get(2);
    float[] alone = embedder.embedDocuments(List.of(text)).get(0);
    List<float[]> batch = embedder.embedDocuments(List.of(TEXTS.get(0), text, TEXTS.get(4), text));
    assertSame(batch.get(1), alone);
    assertSame(batch.get(3), alone);
  }

  @Test
  void sameQueryGivesSameVector() {
    float[] first = embedder.embedQuery("where did we fly to?");
    float[] second = embedder.embedQuery("where did we fly to?");
    assertSame(first, second);
    List<float[]> batch = embedder.embedQueries(List.of("other question", "where did we fly to?"));
    assertSame(batch.get(1), first);
  }

  @Test
  void batchOrderIsPreserved() {
    List<float[]> forward = embedder.embedDocuments(TEXTS);
    List<String> reversedTexts = new ArrayList<>(TEXTS);
    Collections.reverse(reversedTexts);
    List<float[]> backward = embedder.embedDocuments(reversedTexts);
    int n = TEXTS.size();
    for (int i = 0; i < n; i++) {
      assertSame(backward.get(n - 1 - i), forward.get(i));
      float[] single = embedder.embedDocuments(List.of(TEXTS.get(i))).get(0);
      assertSame(forward.get(i), single);
    }
    // distinct texts must not collapse onto one vector, or the order check above proves nothing
    for (int i = 1; i < n; i++) {
      assertThat(cosine(forward.get(0), forward.get(i))).isLessThan(0.999);
    }
  }

  @Test
  void emptyInputGivesEmptyOutput() {
    assertThat(embedder.embedDocuments(List.of())).isEmpty();
    assertThat(embedder.embedQueries(List.of())).isEmpty();
  }

  // ---------------------------------------------------------------- bad and extreme input

  @Test
  void rejectsNullAndBlankQueries() {
    assertThatThrownBy(() -> embedder.embedQuery(null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> embedder.embedQuery("")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> embedder.embedQuery(" \t\n "))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void rejectsNullAndBlankDocuments() {
    assertThatThrownBy(() -> embedder.embedDocuments(Arrays.asList("fine text", null)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> embedder.embedDocuments(List.of("fine text", "   ")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> embedder.embedDocuments(List.of("")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void handlesVeryLongText() {
    String longText = longText(100_000);
    float[] doc = embedder.embedDocuments(List.of(longText)).get(0);
    assertThat(doc).hasSize(embedder.dimension());
    assertUnit(doc);
    float[] query = embedder.embedQuery(longText);
    assertThat(query).hasSize(embedder.dimension());
    assertUnit(query);
    assertSame(embedder.embedDocuments(List.of(longText)).get(0), doc);
  }

  @Test
  void handlesNonAsciiText() {
    List<float[]> vectors =
        embedder.embedDocuments(List.of("Zoë's café in São Paulo 🍋", "東京で寿司を食べた"));
    for (float[] v : vectors) {
      assertThat(v).hasSize(embedder.dimension());
      assertUnit(v);
    }
  }

  // ---------------------------------------------------------------- threads

  @Test
  void concurrentCallersGetIdenticalVectors() throws Exception {
    List<float[]> expectedDocs = embedder.embedDocuments(TEXTS);
    List<float[]> expectedQueries = embedder.embedQueries(TEXTS);
    int threads = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<List<List<float[]>>>> futures = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        Callable<List<List<float[]>>> task =
            () -> {
              start.await();
              return List.of(embedder.embedDocuments(TEXTS), embedder.embedQueries(TEXTS));
            };
        futures.add(pool.submit(task));
      }
      start.countDown();
      for (Future<List<List<float[]>>> f : futures) {
        List<List<float[]>> got = f.get(5, TimeUnit.MINUTES);
        for (int i = 0; i < TEXTS.size(); i++) {
          assertSame(got.get(0).get(i), expectedDocs.get(i));
          assertSame(got.get(1).get(i), expectedQueries.get(i));
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  // ---------------------------------------------------------------- meaning

  @Test
  void paraphraseRanksAboveUnrelatedDocument() {
    assumeThat(semantic()).as("embedder carries meaning").isTrue();
    List<float[]> v =
        embedder.embedDocuments(
            List.of(
                "I adopted a puppy from the animal shelter last weekend.",
                "Last Saturday we brought home a young dog from the rescue centre.",
                "The committee postponed the vote on the new tax rules."));
    assertThat(cosine(v.get(0), v.get(1))).isGreaterThan(cosine(v.get(0), v.get(2)));
  }

  @Test
  void queryRanksTheAnsweringDocumentFirst() {
    assumeThat(semantic()).as("embedder carries meaning").isTrue();
    float[] q = embedder.embedQuery("What pet did I get recently?");
    List<float[]> docs =
        embedder.embedDocuments(
            List.of(
                "The committee postponed the vote on the new tax rules.",
                "Last Saturday we brought home a young dog from the rescue centre.",
                "The train to Glasgow leaves from platform nine."));
    assertThat(cosine(q, docs.get(1))).isGreaterThan(cosine(q, docs.get(0)));
    assertThat(cosine(q, docs.get(1))).isGreaterThan(cosine(q, docs.get(2)));
  }

  // ---------------------------------------------------------------- helpers

  /** A text of about {@code chars} characters made of varied ordinary sentences. */
  protected static String longText(int chars) {
    StringBuilder sb = new StringBuilder(chars + 100);
    int i = 0;
    while (sb.length() < chars) {
      sb.append(TEXTS.get(i % TEXTS.size())).append(" (part ").append(i).append(") ");
      i++;
    }
    return sb.toString();
  }

  protected static double cosine(float[] a, float[] b) {
    double dot = 0;
    double na = 0;
    double nb = 0;
    for (int i = 0; i < a.length; i++) {
      dot += (double) a[i] * b[i];
      na += (double) a[i] * a[i];
      nb += (double) b[i] * b[i];
    }
    return dot / Math.sqrt(na * nb);
  }

  protected static double norm(float[] v) {
    double s = 0;
    for (float x : v) {
      s += (double) x * x;
    }
    return Math.sqrt(s);
  }

  protected static void assertUnit(float[] v) {
    assertThat(norm(v)).as("L2 norm").isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-4));
  }

  protected void assertSame(float[] actual, float[] expected) {
    assertThat(actual).hasSize(expected.length);
    double tolerance = sameVectorTolerance();
    if (tolerance == 0.0) {
      assertThat(actual).containsExactly(expected);
    } else {
      for (int i = 0; i < actual.length; i++) {
        assertThat((double) actual[i])
            .as("component %d", i)
            .isCloseTo(expected[i], org.assertj.core.data.Offset.offset(tolerance));
      }
    }
  }
}
