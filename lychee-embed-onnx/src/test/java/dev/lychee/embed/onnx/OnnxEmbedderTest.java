package dev.lychee.embed.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.inject.Guice;
import com.google.inject.Injector;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.EmbeddingProfile;
import dev.lychee.core.conformance.BaseEmbedderTestCase;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shared embedder contract plus what is specific to the in-process BGE model. */
class OnnxEmbedderTest extends BaseEmbedderTestCase {

  @Override
  protected Embedder newEmbedder() {
    return new OnnxEmbedder();
  }

  @Test
  void identifiesAsBgeSmall() {
    assertThat(embedder.modelId()).isEqualTo("bge-small-en-v1.5-q");
    assertThat(embedder.dimension()).isEqualTo(384);
    assertThat(embedder.profile()).isNotEqualTo(EmbeddingProfile.TEXT_EMBEDDING_3_SMALL);
  }

  @Test
  void queryInstructionIsAppliedToQueriesOnly() {
    String text = "Where did Anna spend her holiday?";
    float[] asQuery = embedder.embedQuery(text);
    float[] asDocument = embedder.embedDocuments(List.of(text)).get(0);
    float[] instructedDocument =
        embedder.embedDocuments(List.of(OnnxEmbedder.QUERY_INSTRUCTION + text)).get(0);
    assertThat(asQuery).isNotEqualTo(asDocument);
    // the query side is exactly the document side with the instruction in front
    assertThat(asQuery).containsExactly(instructedDocument);
    // still the same subject
    assertThat(cosine(asQuery, asDocument)).isGreaterThan(0.8);
  }

  @Test
  void cachedQueryIsEqualButNotShared() {
    float[] first = embedder.embedQuery("what did we cook on Sunday?");
    float[] copy = first.clone();
    first[0] = 42f; // a caller scribbling on its array must not corrupt the cache
    float[] second = embedder.embedQuery("what did we cook on Sunday?");
    assertThat(second).containsExactly(copy);
    assertThat(second).isNotSameAs(first);
  }

  @Test
  void cacheKeyIgnoresSurroundingWhitespace() {
    assertThat(embedder.embedQuery("  holiday plans \n")).containsExactly(embedder.embedQuery("holiday plans"));
  }

  @Test
  void cacheCanBeDisabledWithoutChangingResults() {
    OnnxEmbedder uncached =
        new OnnxEmbedder(OnnxEmbedderConfig.builder().queryCacheSize(0).build());
    assertThat(uncached.embedQuery("a question about tea"))
        .containsExactly(embedder.embedQuery("a question about tea"));
  }

  @Test
  void batchedQueriesEqualSingleQueries() {
    List<String> queries = List.of("who plays the violin?", "when was the flight?", "who plays the violin?");
    OnnxEmbedder uncached =
        new OnnxEmbedder(OnnxEmbedderConfig.builder().queryCacheSize(0).batchSize(2).build());
    List<float[]> batched = embedder.embedQueries(queries);
    List<float[]> batchedUncached = uncached.embedQueries(queries);
    assertThat(batched).hasSize(3);
    for (int i = 0; i < queries.size(); i++) {
      float[] single = uncached.embedQuery(queries.get(i));
      assertThat(batched.get(i)).containsExactly(single);
      assertThat(batchedUncached.get(i)).containsExactly(single);
    }
    // duplicates are separate arrays: writing into one leaves the other intact
    assertThat(batched.get(0)).isNotSameAs(batched.get(2));
    assertThatThrownBy(() -> embedder.embedQueries(List.of("fine", "")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("queries[1]");
  }

  @Test
  void batchSizeDoesNotChangeResults() {
    OnnxEmbedder tiny = new OnnxEmbedder(OnnxEmbedderConfig.builder().batchSize(2).build());
    List<float[]> small = tiny.embedDocuments(TEXTS);
    List<float[]> big = embedder.embedDocuments(TEXTS);
    assertThat(small).hasSize(big.size());
    for (int i = 0; i < big.size(); i++) {
      assertThat(small.get(i)).containsExactly(big.get(i));
    }
  }

  @Test
  void textIsTruncatedAtMaxChars() {
    OnnxEmbedder shortWindow = new OnnxEmbedder(OnnxEmbedderConfig.builder().maxChars(64).build());
    String head = "The kettle clicked off and she poured water over the tea leaves.";
    assertThat(head).hasSize(64);
    String longer = head + " Then the phone rang and it was her brother calling from Oslo.";
    assertThat(shortWindow.embedDocuments(List.of(longer)).get(0))
        .containsExactly(shortWindow.embedDocuments(List.of(head)).get(0));
    // the default window reads past 64 characters, so the tail matters there
    assertThat(embedder.embedDocuments(List.of(longer)).get(0))
        .isNotEqualTo(embedder.embedDocuments(List.of(head)).get(0));
  }

  @Test
  void manyDocumentsAcrossSeveralBatches() {
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 70; i++) {
      texts.add(TEXTS.get(i % TEXTS.size()) + " Note number " + i + ".");
    }
    List<float[]> vectors = embedder.embedDocuments(texts);
    assertThat(vectors).hasSize(70);
    assertThat(vectors.get(69)).containsExactly(embedder.embedDocuments(List.of(texts.get(69))).get(0));
  }

  @Test
  void errorMessageNamesTheOffendingElement() {
    assertThatThrownBy(() -> embedder.embedDocuments(List.of("ok", "ok too", " ")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("texts[2]")
        .hasMessageContaining("blank");
    assertThatThrownBy(() -> embedder.embedDocuments(null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void configIsValidated() {
    assertThatThrownBy(() -> OnnxEmbedderConfig.builder().batchSize(0).build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> OnnxEmbedderConfig.builder().queryCacheSize(-1).build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> OnnxEmbedderConfig.builder().maxChars(3).build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> OnnxEmbedderConfig.builder().backgroundThreads(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("backgroundThreads must be in [1, 256], was 0");
    assertThatThrownBy(() -> OnnxEmbedderConfig.builder().backgroundThreads(257).build())
        .isInstanceOf(IllegalArgumentException.class);
    OnnxEmbedderConfig d = OnnxEmbedderConfig.defaults();
    assertThat(d.backgroundThreads())
        .isEqualTo(Math.max(1, Runtime.getRuntime().availableProcessors() - 1))
        .isEqualTo(OnnxEmbedderConfig.defaultBackgroundThreads());
    assertThat(d.batchSize()).isEqualTo(32);
    assertThat(d.queryCacheSize()).isEqualTo(4096);
    assertThat(d.maxChars()).isEqualTo(2000);
    assertThat(d.toBuilder().build()).isEqualTo(d);
  }

  @Test
  void guiceModuleBindsOneSharedOnnxEmbedder() {
    Injector injector = Guice.createInjector(new OnnxEmbeddingModule());
    Embedder a = injector.getInstance(Embedder.class);
    Embedder b = injector.getInstance(Embedder.class);
    assertThat(a).isInstanceOf(OnnxEmbedder.class).isSameAs(b);
  }
}
