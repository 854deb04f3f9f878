package dev.lychee.spring.boot;

import dev.lychee.core.testing.HashingEmbedder;
import java.util.ArrayList;
import java.util.List;
import org.springframework.ai.document.Document;
import org.springframework.ai.embedding.Embedding;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.embedding.EmbeddingRequest;
import org.springframework.ai.embedding.EmbeddingResponse;

/**
 * An in-process Spring AI embedding model for the auto-configuration tests, which are about bean
 * wiring and property binding rather than embeddings.
 */
final class HashingEmbeddingModel implements EmbeddingModel {
  private final HashingEmbedder embedder = new HashingEmbedder(32);

  @Override
  public EmbeddingResponse call(EmbeddingRequest request) {
    List<Embedding> out = new ArrayList<>();
    List<float[]> vectors = embedder.embedDocuments(request.getInstructions());
    for (int i = 0; i < vectors.size(); i++) {
      out.add(new Embedding(vectors.get(i), i));
    }
    return new EmbeddingResponse(out);
  }

  @Override
  public float[] embed(Document document) {
    return embedder.embedQuery(document.getText());
  }

  @Override
  public int dimensions() {
    return 32;
  }
}
