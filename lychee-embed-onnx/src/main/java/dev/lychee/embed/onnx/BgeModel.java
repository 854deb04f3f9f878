package dev.lychee.embed.onnx;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The BGE model and tokenizer that ship in langchain4j's {@code bge-small-en-v15-q} jar, run on an
 * ONNX Runtime session with our own thread settings, one text per call on the calling thread.
 *
 * <p>Why not the jar's own session: it uses ONNX Runtime's defaults, an intra-op pool of one thread
 * per core whose threads spin while they wait. The embedder already runs the texts of a batch in
 * parallel, so every core then carries two spinning pools at once; on a busy machine that made a
 * batch three to five times slower than one intra-op thread per call without spinning (measured
 * with {@code eval speed} on 2 cores). The texts, the tokenizer, the model graph and the pooling
 * (CLS) are the jar's, so the vectors are the same.
 *
 * <p>One instance per intra-op thread count and JVM (the model is 34 MB); thread-safe, since an
 * ONNX session and the tokenizer may be used by several threads at once.
 */
final class BgeModel extends AbstractInProcessEmbeddingModel {
  private static final String MODEL = "bge-small-en-v1.5-q.onnx";
  private static final String TOKENIZER = "bge-small-en-v1.5-q-tokenizer.json";
  private static final Map<Integer, BgeModel> SHARED = new ConcurrentHashMap<>();

  private final OnnxBertBiEncoder encoder;

  private BgeModel(OnnxBertBiEncoder encoder) {
    // every call embeds one text, which the base class does on the calling thread: no executor
    super(Runnable::run);
    this.encoder = encoder;
  }

  /** The model for sessions with {@code intraOpThreads} threads per call, loaded on first use. */
  static BgeModel shared(int intraOpThreads) {
    return SHARED.computeIfAbsent(intraOpThreads, BgeModel::load);
  }

  /** The model's vector of one prepared text (not yet re-normalised). */
  float[] embedOne(String text) {
    return embed(text).content().vector();
  }

  @Override
  protected OnnxBertBiEncoder model() {
    return encoder;
  }

  @Override
  protected Integer knownDimension() {
    return OnnxEmbedder.DIMENSION;
  }

  private static BgeModel load(int intraOpThreads) {
    ClassLoader jar = BgeSmallEnV15QuantizedEmbeddingModel.class.getClassLoader();
    try (InputStream model = jar.getResourceAsStream(MODEL);
        InputStream tokenizer = jar.getResourceAsStream(TOKENIZER);
        OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
      if (model == null || tokenizer == null) {
        throw new IllegalStateException(MODEL + " or " + TOKENIZER + " is missing from the classpath");
      }
      options.setIntraOpNumThreads(intraOpThreads);
      options.setInterOpNumThreads(1);
      options.addConfigEntry("session.intra_op.allow_spinning", "0");
      OrtEnvironment env = OrtEnvironment.getEnvironment();
      OrtSession session = env.createSession(model.readAllBytes(), options);
      return new BgeModel(new OnnxBertBiEncoder(env, session, tokenizer, PoolingMode.CLS));
    } catch (IOException e) {
      throw new UncheckedIOException("could not read the BGE model from its jar", e);
    } catch (OrtException e) {
      throw new IllegalStateException("ONNX Runtime could not load the BGE model", e);
    }
  }
}
