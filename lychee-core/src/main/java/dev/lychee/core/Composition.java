package dev.lychee.core;

import com.google.inject.ConfigurationException;
import com.google.inject.CreationException;
import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Module;
import com.google.inject.ProvisionException;
import com.google.inject.spi.Message;
import com.google.inject.util.Modules;
import dev.lychee.api.LycheeException;
import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Builds the injector behind a {@link Lychee}: {@link LycheeModule} overridden by the caller's
 * modules, plus the listener that records what must be closed. Each module's {@code configure()}
 * runs once, inside {@link Guice#createInjector}; nothing is inspected beforehand.
 *
 * <p>Guice reports a wiring problem as a page of text. The problems a user can cause get one
 * sentence instead: no embedder bound, or a component that failed to start (a store that cannot
 * open its file, an LLM mode without a chat model), whose own exception is rethrown as it is.
 */
final class Composition {
  private static final Pattern NO_EMBEDDER =
      Pattern.compile("No implementation for (dev\\.lychee\\.api\\.spi\\.)?Embedder was bound");
  static final String NO_EMBEDDER_MESSAGE = "no Embedder is bound: add an embedding module, for example "
      + "new OnnxEmbeddingModule() from lychee-embed-onnx (offline), or OpenAiModule/OllamaModule";

  private Composition() {}

  static Injector injector(LycheeConfig config, List<Module> modules, Resources resources) {
    Module all = Modules.override(new LycheeModule(config)).with(modules);
    try {
      return Guice.createInjector(all, resources.module());
    } catch (CreationException e) {
      throw translate(e.getErrorMessages(), e);
    }
  }

  /** Gets an instance, with a start-up failure reported as the component's own exception. */
  static <T> T instance(Injector injector, Class<T> type) {
    try {
      return injector.getInstance(type);
    } catch (ProvisionException e) {
      throw translate(e.getErrorMessages(), e);
    } catch (ConfigurationException e) {
      throw translate(e.getErrorMessages(), e);
    }
  }

  private static RuntimeException translate(Collection<Message> messages, RuntimeException guice) {
    for (Message m : messages) {
      if (NO_EMBEDDER.matcher(m.getMessage()).find()) {
        return new LycheeException(NO_EMBEDDER_MESSAGE, null);
      }
    }
    if (messages.size() == 1) {
      Throwable cause = messages.iterator().next().getCause();
      while (cause instanceof ProvisionException p && p.getCause() != null) {
        cause = p.getCause();
      }
      if (cause instanceof RuntimeException r) {
        return r;
      }
      if (cause != null) {
        return new LycheeException(cause.getMessage() == null ? cause.toString() : cause.getMessage(), cause);
      }
    }
    return guice;
  }
}
