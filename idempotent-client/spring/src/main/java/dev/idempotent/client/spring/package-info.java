/**
 * {@code idempotent-client} on Spring's {@code RestClient}:
 * {@link dev.idempotent.client.spring.RestClientTransport#of(org.springframework.web.client.RestClient)} is the
 * {@link dev.idempotent.client.Transport} a service passes to {@code IdempotentClient.builder().transport(...)}, so
 * its own client and interceptors carry every attempt.
 *
 * <p>Null rules: no parameter or return value in this package is null.
 */
package dev.idempotent.client.spring;
