package dev.lychee.spring.boot;

import com.google.inject.AbstractModule;
import com.google.inject.Module;
import dev.lychee.api.LycheeException;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.EmbeddingProfile;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.spring.ai.bridge.SpringAiChatModel;
import dev.lychee.spring.ai.bridge.SpringAiEmbedder;
import dev.lychee.store.sqlite.SqliteStoreModule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.util.ClassUtils;

/**
 * Builds the {@link Lychee} instance the properties describe, on the application's Spring AI models
 * where the properties say so. One job: turning configuration into Guice modules.
 */
final class LycheeFactory {
  private static final String ONNX_MODULE = "dev.lychee.embed.onnx.OnnxEmbeddingModule";
  private static final String LUCENE_MODULE = "dev.lychee.store.lucene.LuceneStoreModule";

  private LycheeFactory() {}

  static Lychee create(LycheeProperties p, EmbeddingModel embeddingModel, ChatModel chatModel) {
    LycheeConfig config = LycheeConfig.builder().segmenter(p.segmenter()).llm(p.llm().mode())
        .encodeMode(p.encoding().resolvedMode()).build();
    List<Module> modules = new ArrayList<>();
    modules.add(embedder(p.embedder(), embeddingModel));
    store(p.store()).ifPresent(modules::add);
    boolean useChat = chatModel != null && p.llm().mode() != LycheeConfig.Mode.OFFLINE;
    if (p.llm().mode() == LycheeConfig.Mode.LLM && chatModel == null) {
      throw new LycheeException("lychee.llm.mode=llm needs exactly one Spring AI ChatModel bean; found none "
          + "(or several: define the one Lychee should use as a bean of type dev.lychee.core.Lychee yourself)");
    }
    if (useChat) {
      SpringAiChatModel bridge = new SpringAiChatModel(chatModel);
      modules.add(new AbstractModule() {
        @Override
        protected void configure() {
          bind(dev.lychee.api.spi.ChatModel.class).toInstance(bridge);
        }
      });
    }
    return Lychee.create(config, modules.toArray(Module[]::new));
  }

  private static Module embedder(LycheeProperties.Embedder e, EmbeddingModel model) {
    boolean onnx = ClassUtils.isPresent(ONNX_MODULE, LycheeFactory.class.getClassLoader());
    switch (e.type()) {
      case SPRING_AI -> {
        if (model == null) {
          throw new LycheeException("lychee.embedder.type=spring-ai needs exactly one Spring AI EmbeddingModel bean; found none or several");
        }
        return bind(new SpringAiEmbedder(model, "spring-ai", e.dimension(), EmbeddingProfile.TEXT_EMBEDDING_3_SMALL));
      }
      case ONNX -> {
        if (!onnx) {
          throw new LycheeException("lychee.embedder.type=onnx needs dev.lychee:lychee-embed-onnx on the class path");
        }
        return instantiate(ONNX_MODULE, null);
      }
      default -> {
        if (model != null) {
          return bind(new SpringAiEmbedder(model, "spring-ai", e.dimension(), EmbeddingProfile.TEXT_EMBEDDING_3_SMALL));
        }
        if (onnx) {
          return instantiate(ONNX_MODULE, null);
        }
        throw new LycheeException("Lychee has no embedder: define one Spring AI EmbeddingModel bean "
            + "(for example with spring-ai-starter-model-openai) or add dev.lychee:lychee-embed-onnx");
      }
    }
  }

  private static java.util.Optional<Module> store(LycheeProperties.Store s) {
    Path path = s.resolvedPath().toAbsolutePath();
    switch (s.type()) {
      case MEMORY -> {
        return java.util.Optional.empty();
      }
      case LUCENE -> {
        if (!ClassUtils.isPresent(LUCENE_MODULE, LycheeFactory.class.getClassLoader())) {
          throw new LycheeException("lychee.store.type=lucene needs dev.lychee:lychee-store-lucene on the class path");
        }
        createDirectories(path);
        return java.util.Optional.of(instantiate(LUCENE_MODULE, path));
      }
      default -> {
        createDirectories(path.getParent());
        return java.util.Optional.of(new SqliteStoreModule(path));
      }
    }
  }

  private static void createDirectories(Path dir) {
    if (dir == null) {
      return;
    }
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the Lychee store directory " + dir, e);
    }
  }

  private static Module bind(Embedder embedder) {
    return new AbstractModule() {
      @Override
      protected void configure() {
        bind(Embedder.class).toInstance(embedder);
      }
    };
  }

  /** Optional modules are created reflectively, so that their absence never breaks class loading. */
  private static Module instantiate(String className, Path path) {
    try {
      Class<?> type = Class.forName(className);
      return (Module) (path == null ? type.getConstructor().newInstance()
          : type.getConstructor(Path.class).newInstance(path));
    } catch (ReflectiveOperationException e) {
      throw new LycheeException("cannot create " + className + ": " + e, e);
    }
  }
}
