package dev.lychee.bench.cli;

import dev.lychee.api.spi.Embedder;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import picocli.CommandLine.Command;

/**
 * {@code lychee eval}: the evaluation harness. Subcommands measure evidence recall on LoCoMo,
 * segmentation cost, speed, LongMemEval retrieval, embedder surprise statistics, the HTTP server
 * under load, offline answers on saved evidence and selection settings on captured recalls.
 */
@Command(name = "eval", mixinStandardHelpOptions = true,
    description = "Evaluate Lychee and baselines (see docs/evaluation.md).",
    subcommands = {LocomoCommand.class, SegmentsCommand.class, SpeedCommand.class,
        LongMemEvalCommand.class, CalibrateCommand.class, ServerLoadCommand.class, AnswersCommand.class,
        ReplayCommand.class})
public final class EvalCommand implements Runnable {
  private final Supplier<Embedder> embedderFactory;
  private final Supplier<Embedder> uncachedEmbedderFactory;
  private Map<String, String> environment = System.getenv();

  /** Uses the project's default embedder (BGE-small-en-v1.5, quantized ONNX). */
  public EvalCommand() {
    this(DefaultEmbedder::create, DefaultEmbedder::uncached);
  }

  /** Uses another embedder, which must not cache (tests use a deterministic one). */
  public EvalCommand(Supplier<Embedder> embedderFactory) {
    this(embedderFactory, embedderFactory);
  }

  /**
   * @param embedderFactory the embedder for quality runs
   * @param uncachedEmbedderFactory the same model without any cache, for timing runs
   */
  public EvalCommand(Supplier<Embedder> embedderFactory, Supplier<Embedder> uncachedEmbedderFactory) {
    this.embedderFactory = Objects.requireNonNull(embedderFactory, "embedderFactory");
    this.uncachedEmbedderFactory = Objects.requireNonNull(uncachedEmbedderFactory, "uncachedEmbedderFactory");
  }

  /**
   * The environment that LLM-judged runs read their endpoints and keys from ({@code OPENAI_API_KEY},
   * {@code OPENAI_BASE_URL}, {@code OLLAMA_HOST}); the process environment unless replaced (tests).
   */
  public EvalCommand environment(Map<String, String> env) {
    this.environment = Map.copyOf(env);
    return this;
  }

  Map<String, String> environment() {
    return environment;
  }

  Supplier<Embedder> embedderFactory() {
    return embedderFactory;
  }

  Supplier<Embedder> uncachedEmbedderFactory() {
    return uncachedEmbedderFactory;
  }

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    // listed from the command's own subcommands, so that the list cannot fall behind them
    throw new picocli.CommandLine.ParameterException(spec.commandLine(),
        "choose a subcommand: " + String.join(", ", spec.subcommands().keySet()));
  }
}
