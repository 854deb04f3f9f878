package dev.lychee.spring.boot;

import dev.lychee.api.Question;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.ingest.IngestConfig;
import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The {@code lychee.*} properties. Every value has a default; invalid values stop the application
 * at start-up with a message naming the property.
 *
 * @param store where memory is kept
 * @param embedder which embedder Lychee uses
 * @param llm whether Lychee's encoder, planner and answerer use the application's chat model
 * @param segmenter {@code semantic} (default), {@code fixed} or {@code turn}
 * @param recall recall budgets
 * @param encoding where closed segments are encoded
 * @param advisor the {@code ChatClient} advisor bean
 */
@ConfigurationProperties(prefix = "lychee")
public record LycheeProperties(
    @DefaultValue Store store,
    @DefaultValue Embedder embedder,
    @DefaultValue Llm llm,
    @DefaultValue("semantic") String segmenter,
    @DefaultValue Recall recall,
    @DefaultValue Encoding encoding,
    @DefaultValue Advisor advisor) {

  public LycheeProperties {
    if (segmenter == null || !LycheeConfig.SEGMENTERS.contains(segmenter.trim().toLowerCase(java.util.Locale.ROOT))) {
      throw new IllegalArgumentException("lychee.segmenter must be one of " + LycheeConfig.SEGMENTERS + ": " + segmenter);
    }
  }

  /** The kinds of store. */
  public enum StoreType {
    /** In process memory: lost when the application stops (tests, demos). */
    MEMORY,
    /** A SQLite file (the default). */
    SQLITE,
    /** A Lucene directory (needs {@code lychee-store-lucene} on the class path). */
    LUCENE
  }

  /**
   * @param type {@code sqlite} (default), {@code lucene} or {@code memory}
   * @param path the SQLite file or the Lucene directory; default {@code lychee-data/lychee.db} or
   *     {@code lychee-data/lucene} under the working directory
   */
  public record Store(@DefaultValue("sqlite") StoreType type, Path path) {
    /** The path the store opens. */
    public Path resolvedPath() {
      if (path != null) {
        return path;
      }
      return type == StoreType.LUCENE ? Path.of("lychee-data", "lucene") : Path.of("lychee-data", "lychee.db");
    }
  }

  /** Which embedder Lychee uses. */
  public enum EmbedderType {
    /** The application's Spring AI embedding model if there is one, else the offline ONNX model. */
    AUTO,
    /** The application's Spring AI embedding model (exactly one bean must exist). */
    SPRING_AI,
    /** The offline ONNX model (needs {@code lychee-embed-onnx} on the class path). */
    ONNX
  }

  /**
   * @param type {@code auto} (default), {@code spring-ai} or {@code onnx}
   * @param dimension the Spring AI model's vector dimension; 0 (default) asks the model once
   */
  public record Embedder(@DefaultValue("auto") EmbedderType type, @DefaultValue("0") int dimension) {
    public Embedder {
      if (dimension < 0) {
        throw new IllegalArgumentException("lychee.embedder.dimension must be >= 0 (0 = ask the model): " + dimension);
      }
    }
  }

  /**
   * @param mode {@code auto} (default: the LLM stages run on the application's Spring AI chat
   *     model when there is exactly one), {@code offline} (never an LLM) or {@code llm} (always;
   *     start-up fails without a chat model)
   */
  public record Llm(@DefaultValue("auto") LycheeConfig.Mode mode) {}

  /**
   * @param maxResults evidence items the advisor and the retriever put into a prompt (default 8);
   *     with a token budget, the least search depth
   * @param tokenBudget the most tokens the evidence may take in a prompt, in
   *     [{@link Question#MIN_TOKEN_BUDGET}, {@link Question#MAX_TOKEN_BUDGET}], or 0 (default) for
   *     none
   */
  public record Recall(@DefaultValue("8") int maxResults, @DefaultValue("0") int tokenBudget) {
    public Recall {
      if (maxResults < 1) {
        throw new IllegalArgumentException("lychee.recall.max-results must be >= 1: " + maxResults);
      }
      // name the property, so a bad application.yml fails at start-up with the key to fix
      Question.checkTokenBudget(tokenBudget, "lychee.recall.token-budget");
    }
  }

  /**
   * Where closed segments are encoded ({@code IngestConfig.encodeMode}).
   *
   * @param mode {@code auto} (the default when neither property is set: in the background when the
   *     encoder calls an LLM, on the caller's thread for the offline encoder, as in core), {@code
   *     sync} (an append or flush returns after the segments it closed are encoded) or {@code async}
   *     (an append returns once its turns are committed; encoding follows on background threads)
   * @param async the older boolean form: {@code true} is {@code mode=async}, {@code false} is
   *     {@code mode=sync}; unset by default. Setting both to different modes stops the start.
   */
  public record Encoding(IngestConfig.EncodeMode mode, Boolean async) {
    public Encoding {
      if (mode != null && async != null && mode != fromAsync(async)) {
        throw new IllegalArgumentException("lychee.encoding.mode=" + mode.name().toLowerCase(java.util.Locale.ROOT)
            + " contradicts lychee.encoding.async=" + async + "; set only lychee.encoding.mode");
      }
    }

    /** The mode the Lychee bean runs with: {@code mode}, else what {@code async} says, else {@code AUTO}. */
    public IngestConfig.EncodeMode resolvedMode() {
      if (mode != null) {
        return mode;
      }
      return async == null ? IngestConfig.EncodeMode.AUTO : fromAsync(async);
    }

    private static IngestConfig.EncodeMode fromAsync(boolean async) {
      return async ? IngestConfig.EncodeMode.ASYNC : IngestConfig.EncodeMode.SYNC;
    }
  }

  /**
   * @param enabled whether the {@code LycheeMemoryAdvisor} bean is created (default true)
   * @param order the advisor's order (default: Spring AI's chat-memory order)
   */
  public record Advisor(@DefaultValue("true") boolean enabled,
                        @DefaultValue("" + org.springframework.ai.chat.client.advisor.api.Advisor.DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER) int order) {}
}
