package dev.lychee.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.inject.AbstractModule;
import com.google.inject.Module;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.multibindings.Multibinder;
import dev.lychee.api.Candidate;
import dev.lychee.api.ChatRequest;
import dev.lychee.api.ChatResult;
import dev.lychee.api.LycheeException;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.Turn;
import dev.lychee.api.spi.ChatModel;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.EmbeddingProfile;
import dev.lychee.api.spi.RecallChannel;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.core.store.InMemoryRecordStore;
import dev.lychee.core.testing.HashingEmbedder;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** What Lychee.create builds is built once, and everything closeable it obtained is closed once. */
class LycheeLifecycleTest {
  private final List<String> closes = new ArrayList<>();

  /** An embedder that counts its closes. */
  class CountingEmbedder implements Embedder, AutoCloseable {
    private final HashingEmbedder inner = new HashingEmbedder();

    @Override public List<float[]> embedDocuments(List<String> texts) {
      return inner.embedDocuments(texts);
    }

    @Override public float[] embedQuery(String query) {
      return inner.embedQuery(query);
    }

    @Override public int dimension() {
      return inner.dimension();
    }

    @Override public String modelId() {
      return inner.modelId();
    }

    @Override public EmbeddingProfile profile() {
      return inner.profile();
    }

    @Override public void close() {
      closes.add("embedder");
    }
  }

  final class CountingChat implements ChatModel, AutoCloseable {
    @Override public ChatResult chat(ChatRequest request) {
      return new ChatResult("{}", TokenUsage.ZERO, "fake");
    }

    @Override public String modelId() {
      return "fake";
    }

    @Override public void close() {
      closes.add("chat");
    }
  }

  final class CountingChannel implements RecallChannel, AutoCloseable {
    @Override public String name() {
      return "counting";
    }

    @Override public List<Candidate> recall(RecallRoute route, RecallContext context) {
      return List.of();
    }

    @Override public void close() {
      closes.add("channel");
    }
  }

  /** The in-memory store, counting its closes. */
  private RecordStore countingStore() {
    RecordStore inner = new InMemoryRecordStore();
    return (RecordStore) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {RecordStore.class},
        (proxy, method, args) -> {
          if (method.getName().equals("close") && method.getParameterCount() == 0) {
            closes.add("store");
          }
          try {
            return method.invoke(inner, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  private final AtomicInteger chatsBuilt = new AtomicInteger();

  private Module components() {
    return new AbstractModule() {
      @Override protected void configure() {
        bind(Embedder.class).toInstance(new CountingEmbedder());
        bind(RecordStore.class).toInstance(countingStore());
        Multibinder.newSetBinder(binder(), RecallChannel.class).addBinding().toInstance(new CountingChannel());
      }

      @Provides @Singleton ChatModel chat() {
        chatsBuilt.incrementAndGet();
        return new CountingChat();
      }
    };
  }

  @Test
  void closeClosesEveryCloseableItObtainedExactlyOnce() {
    Lychee lychee = Lychee.create(components());
    lychee.append("ns", "s", List.of(Turn.user("A", "I moved to Lisbon in May.")));
    lychee.recall("ns", "Where did A move?");
    assertThat(chatsBuilt).as("the chat model is built once per instance").hasValue(1);
    assertThat(closes).isEmpty();

    lychee.close();
    assertThat(closes).containsExactlyInAnyOrder("embedder", "chat", "channel", "store");
    lychee.close();
    assertThat(closes).as("close is idempotent").hasSize(4);
    assertThatThrownBy(() -> lychee.recall("ns", "x")).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void providedComponentsAreClosedBeforeTheStoreTheyUse() {
    Lychee.create(components()).close();
    assertThat(closes.indexOf("store")).isGreaterThan(closes.indexOf("chat"));
  }

  @Test
  void oneFailingCloseDoesNotKeepTheOthersOpen() {
    Module failing = new AbstractModule() {
      @Override protected void configure() {
        bind(Embedder.class).toInstance(new CountingEmbedder() {
          @Override public void close() {
            super.close();
            throw new IllegalStateException("embedder close failed");
          }
        });
      }
    };
    Lychee lychee = Lychee.create(com.google.inject.util.Modules.override(components()).with(failing));
    assertThatThrownBy(lychee::close).hasMessage("embedder close failed");
    assertThat(closes).contains("embedder", "chat", "channel", "store");
  }

  @Test
  void aMissingEmbedderIsReportedInOneSentenceWhenTheInjectorIsBuilt() {
    assertThatThrownBy(() -> Lychee.create(new AbstractModule() {}))
        .isInstanceOf(LycheeException.class)
        .hasMessage(Composition.NO_EMBEDDER_MESSAGE);
  }

  @Test
  void aComponentThatFailsToStartIsReportedByItsOwnExceptionNotAGuicePage() {
    Module broken = new AbstractModule() {
      @Override protected void configure() {
        bind(Embedder.class).toInstance(new CountingEmbedder());
      }

      @Provides @Singleton RecordStore store() {
        throw new IllegalStateException("not a Lychee database: /tmp/x");
      }
    };
    assertThatThrownBy(() -> Lychee.create(broken))
        .isExactlyInstanceOf(IllegalStateException.class)
        .hasMessage("not a Lychee database: /tmp/x");
  }

  @Test
  void eachModuleIsConfiguredOnce() {
    AtomicInteger configured = new AtomicInteger();
    Module counting = new AbstractModule() {
      @Override protected void configure() {
        configured.incrementAndGet();
        bind(Embedder.class).toInstance(new HashingEmbedder());
      }
    };
    Lychee.create(counting).close();
    assertThat(configured).hasValue(1);
  }
}
