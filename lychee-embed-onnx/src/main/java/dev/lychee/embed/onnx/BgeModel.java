package dev.lychee.embed.onnx;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
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
 * <p>A text that fits one model window (at most {@value #MAX_TOKENS} tokens with {@code [CLS]} and
 * {@code [SEP]}, nearly every text) is tokenised once and run here; the wrapper's own path
 * tokenises it three times (tokens, a rebuilt sentence, its encoding) to the same ids and copies
 * the whole output tensor to read its first row, about a tenth of a short text's time
 * (docs/defaults.md §7). Longer texts take the wrapper's path, which averages 510-token windows.
 *
 * <p>One instance per intra-op thread count and JVM (the model is 34 MB); thread-safe, since an
 * ONNX session and the tokenizer may be used by several threads at once.
 */
final class BgeModel extends AbstractInProcessEmbeddingModel {
  private static final String MODEL = "bge-small-en-v1.5-q.onnx";
  private static final String TOKENIZER = "bge-small-en-v1.5-q-tokenizer.json";
  private static final Map<Integer, BgeModel> SHARED = new ConcurrentHashMap<>();

  /** The model's window: 510 word pieces plus {@code [CLS]} and {@code [SEP]}. */
  static final int MAX_TOKENS = 512;

  private final OnnxBertBiEncoder encoder;
  private final OrtEnvironment env;
  private final OrtSession session;
  private final HuggingFaceTokenizer tokenizer;
  private final boolean typeIds;

  private BgeModel(OrtEnvironment env, OrtSession session, byte[] tokenizerJson) throws OrtException {
    // every call embeds one text, which the base class does on the calling thread: no executor
    super(Runnable::run);
    this.env = env;
    this.session = session;
    this.encoder = new OnnxBertBiEncoder(env, session, new ByteArrayInputStream(tokenizerJson), PoolingMode.CLS);
    // the wrapper's tokenizer, built the same way from the same file, so the ids are the same
    try {
      this.tokenizer = HuggingFaceTokenizer.newInstance(new ByteArrayInputStream(tokenizerJson), Map.of("padding", "false"));
    } catch (IOException e) {
      throw new UncheckedIOException("could not read the BGE tokenizer", e);
    }
    this.typeIds = session.getInputNames().contains("token_type_ids");
  }

  /** The model for sessions with {@code intraOpThreads} threads per call, loaded on first use. */
  static BgeModel shared(int intraOpThreads) {
    return SHARED.computeIfAbsent(intraOpThreads, BgeModel::load);
  }

  /** The model's vector of one prepared text (not yet re-normalised). */
  float[] embedOne(String text) {
    Encoding encoding = tokenizer.encode(text, true, false);
    long[] ids = encoding.getIds();
    if (ids.length > MAX_TOKENS) {
      return viaWrapper(text);
    }
    long[] shape = {1, ids.length};
    try (OnnxTensor idTensor = OnnxTensor.createTensor(env, LongBuffer.wrap(ids), shape);
        OnnxTensor mask = OnnxTensor.createTensor(env, LongBuffer.wrap(encoding.getAttentionMask()), shape);
        OnnxTensor types = OnnxTensor.createTensor(env, LongBuffer.wrap(encoding.getTypeIds()), shape)) {
      Map<String, OnnxTensor> inputs = typeIds
          ? Map.of("input_ids", idTensor, "attention_mask", mask, "token_type_ids", types)
          : Map.of("input_ids", idTensor, "attention_mask", mask);
      return run(inputs);
    } catch (OrtException e) {
      throw new IllegalStateException("ONNX Runtime failed on a text of " + ids.length + " tokens", e);
    }
  }

  private float[] run(Map<String, OnnxTensor> inputs) throws OrtException {
    try (OrtSession.Result result = session.run(inputs)) {
      // the first output is the last hidden state [1, tokens, 384]; CLS pooling reads row 0
      FloatBuffer hidden = ((OnnxTensor) result.get(0)).getFloatBuffer();
      float[] cls = new float[OnnxEmbedder.DIMENSION];
      hidden.get(cls);
      return cls;
    }
  }

  /** The wrapper's own path: tokens in 510-token windows, one model call each, averaged. */
  float[] viaWrapper(String text) {
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
      return new BgeModel(env, session, tokenizer.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException("could not read the BGE model from its jar", e);
    } catch (OrtException e) {
      throw new IllegalStateException("ONNX Runtime could not load the BGE model", e);
    }
  }
}
