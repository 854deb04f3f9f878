package dev.lychee.spring.boot;

import dev.lychee.core.Lychee;
import dev.lychee.spring.ai.ConversationScopeResolver;
import dev.lychee.spring.ai.advisor.AdvisorListener;
import dev.lychee.spring.ai.advisor.LycheeMemoryAdvisor;
import dev.lychee.spring.ai.retriever.LycheeDocumentRetriever;
import dev.lychee.spring.boot.actuate.LycheeHealthIndicator;
import dev.lychee.spring.boot.metrics.MicrometerAdvisorListener;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configures Lychee: a {@link Lychee} bean from the {@code lychee.*} properties, on the
 * application's Spring AI {@link EmbeddingModel} and {@link ChatModel} when there is exactly one of
 * each; the {@link LycheeMemoryAdvisor} and {@link LycheeDocumentRetriever} beans; a health
 * indicator when Actuator is present; advisor metrics when Micrometer is. Every bean backs off when
 * the application defines its own.
 */
@AutoConfiguration(afterName = {
    "org.springframework.ai.model.openai.autoconfigure.OpenAiChatAutoConfiguration",
    "org.springframework.ai.model.openai.autoconfigure.OpenAiEmbeddingAutoConfiguration",
    "org.springframework.ai.model.ollama.autoconfigure.OllamaChatAutoConfiguration",
    "org.springframework.ai.model.ollama.autoconfigure.OllamaEmbeddingAutoConfiguration",
    "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration"})
@ConditionalOnClass(Lychee.class)
@EnableConfigurationProperties(LycheeProperties.class)
public class LycheeAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  public Lychee lychee(LycheeProperties properties, ObjectProvider<EmbeddingModel> embeddingModel,
                       ObjectProvider<ChatModel> chatModel) {
    return LycheeFactory.create(properties, embeddingModel.getIfUnique(), chatModel.getIfUnique());
  }

  @Bean
  @ConditionalOnMissingBean
  public ConversationScopeResolver lycheeConversationScopeResolver() {
    return ConversationScopeResolver.byUserThenConversation();
  }

  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnProperty(prefix = "lychee.advisor", name = "enabled", havingValue = "true", matchIfMissing = true)
  public LycheeMemoryAdvisor lycheeMemoryAdvisor(Lychee lychee, ConversationScopeResolver resolver,
                                                 LycheeProperties properties, ObjectProvider<AdvisorListener> listener) {
    return LycheeMemoryAdvisor.builder(lychee).resolver(resolver).maxResults(properties.recall().maxResults())
        .tokenBudget(properties.recall().tokenBudget()).order(properties.advisor().order()).listener(listener.getIfUnique(() -> AdvisorListener.NONE)).build();
  }

  @Bean
  @ConditionalOnMissingBean
  public LycheeDocumentRetriever lycheeDocumentRetriever(Lychee lychee, ConversationScopeResolver resolver,
                                                         LycheeProperties properties) {
    return new LycheeDocumentRetriever(lychee, resolver, properties.recall().maxResults(),
        properties.recall().tokenBudget());
  }

  /** Metrics of the advisor, when Micrometer is on the class path and a registry is defined. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(MeterRegistry.class)
  static class Metrics {
    @Bean
    @ConditionalOnMissingBean(AdvisorListener.class)
    AdvisorListener lycheeMicrometerAdvisorListener(ObjectProvider<MeterRegistry> registry) {
      MeterRegistry r = registry.getIfUnique();
      return r == null ? AdvisorListener.NONE : new MicrometerAdvisorListener(r);
    }
  }

  /** The health indicator, when Spring Boot Actuator is on the class path. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
  static class Health {
    @Bean
    @ConditionalOnMissingBean(name = "lycheeHealthIndicator")
    LycheeHealthIndicator lycheeHealthIndicator(Lychee lychee, LycheeProperties properties) {
      return new LycheeHealthIndicator(lychee, properties.store().type().name().toLowerCase(java.util.Locale.ROOT));
    }
  }
}
