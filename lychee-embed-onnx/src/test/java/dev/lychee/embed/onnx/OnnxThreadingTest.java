package dev.lychee.embed.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The embedder's own ONNX session and its caller-runs batches. */
class OnnxThreadingTest {
  private static final List<String> TEXTS = List.of(
      "Nadia: I went to the choir rehearsal yesterday and it was really powerful.",
      "Rafael: That's great! I painted a lake at sunrise last weekend.",
      "Entity: Nadia\nTag: choir rehearsal\nEvidence: Nadia went to a choir rehearsal on 7 May 2023.",
      "ok");

  @Test
  void vectorsAreThoseOfTheJarsOwnModelSession() {
    BgeSmallEnV15QuantizedEmbeddingModel jar = new BgeSmallEnV15QuantizedEmbeddingModel();
    List<float[]> ours = new OnnxEmbedder().embedDocuments(TEXTS);
    for (int i = 0; i < TEXTS.size(); i++) {
      float[] expected = jar.embed(TEXTS.get(i)).content().vector();
      assertThat(ours.get(i)).containsExactly(unit(expected), org.assertj.core.data.Offset.offset(1e-6f));
    }
  }

  @Test
  void moreThreadsPerTextGiveTheSameVectors() {
    OnnxEmbedder two = new OnnxEmbedder(OnnxEmbedderConfig.builder().intraOpThreads(2).build());
    List<float[]> one = new OnnxEmbedder().embedDocuments(TEXTS);
    List<float[]> other = two.embedDocuments(TEXTS);
    for (int i = 0; i < TEXTS.size(); i++) {
      assertThat(other.get(i)).containsExactly(one.get(i), org.assertj.core.data.Offset.offset(1e-6f));
    }
    assertThatThrownBy(() -> OnnxEmbedderConfig.builder().intraOpThreads(0).build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(OnnxEmbedderConfig.defaults().intraOpThreads()).isEqualTo(1);
  }

  @Test
  void aBatchCompletesOnTheCallersThreadWhileEveryHelperIsBusy() throws Exception {
    OnnxEmbedder embedder = new OnnxEmbedder();
    List<float[]> expected = embedder.embedDocuments(TEXTS);
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch busy = new CountDownLatch(EmbeddingThreads.size());
    for (int i = 0; i < EmbeddingThreads.size(); i++) {
      EmbeddingThreads.shared().execute(() -> {
        busy.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
    }
    try {
      busy.await();
      // before, the batch waited for the pool: with every helper blocked it would never finish
      List<float[]> got = assertTimeoutPreemptively(Duration.ofMinutes(2), () -> embedder.embedDocuments(TEXTS));
      for (int i = 0; i < TEXTS.size(); i++) {
        assertThat(got.get(i)).containsExactly(expected.get(i));
      }
    } finally {
      release.countDown();
    }
  }

  @Test
  void concurrentBatchesGetTheVectorsOfTheirOwnTexts() throws Exception {
    OnnxEmbedder embedder = new OnnxEmbedder();
    List<float[]> expected = embedder.embedDocuments(TEXTS);
    ExecutorService callers = Executors.newFixedThreadPool(4);
    try {
      List<Future<List<float[]>>> futures = new ArrayList<>();
      for (int c = 0; c < 8; c++) {
        List<String> rotated = new ArrayList<>(TEXTS);
        java.util.Collections.rotate(rotated, c);
        futures.add(callers.submit(() -> embedder.embedDocuments(rotated)));
      }
      for (int c = 0; c < futures.size(); c++) {
        List<float[]> got = futures.get(c).get();
        for (int i = 0; i < TEXTS.size(); i++) {
          assertThat(got.get((i + c) % TEXTS.size())).containsExactly(expected.get(i));
        }
      }
    } finally {
      callers.shutdownNow();
    }
  }

  private static float[] unit(float[] v) {
    double norm = 0;
    for (float x : v) {
      norm += x * x;
    }
    float[] out = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = (float) (v[i] / Math.sqrt(norm));
    }
    return out;
  }
}
