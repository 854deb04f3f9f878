/**
 * Spring Boot auto-configuration of Lychee: {@link dev.lychee.spring.boot.LycheeAutoConfiguration}
 * builds a {@code Lychee} from {@code lychee.*} properties ({@link
 * dev.lychee.spring.boot.LycheeProperties}) on the application's Spring AI models, and offers the
 * memory advisor and the document retriever as beans.
 */
package dev.lychee.spring.boot;
