import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as integrations from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

/** Path the shop posts cart customers to. */
export const WEBHOOK_PATH = '/cart-customers';

/**
 * One JSON object per request, so Logs Insights reads fields without a parse pattern. No
 * headers or body: the signature and the shop's data stay out of the logs.
 */
const ACCESS_LOG_FORMAT = apigw.AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    requestTime: '$context.requestTime',
    sourceIp: '$context.identity.sourceIp',
    userAgent: '$context.identity.userAgent',
    httpMethod: '$context.httpMethod',
    path: '$context.path',
    routeKey: '$context.routeKey',
    protocol: '$context.protocol',
    status: '$context.status',
    responseLength: '$context.responseLength',
    responseLatency: '$context.responseLatency',
    integrationStatus: '$context.integrationStatus',
    integrationLatency: '$context.integrationLatency',
    integrationError: '$context.integrationErrorMessage',
    error: '$context.error.message',
  }),
);

export interface WebhookApiProps {
  readonly handler: lambda.IFunction;
  /** Steady-state requests per second for the stage. */
  readonly rateLimit: number;
  /** Burst limit for the stage; at least rateLimit. */
  readonly burstLimit: number;
  readonly logRetention: logs.RetentionDays;
}

/**
 * The webhook's HTTPS entry point: an HTTP API with one `POST /cart-customers` route to the
 * function, stage throttling and JSON access logs. Requests are authenticated in the function
 * (HMAC signature over timestamp and body), so the route has no API Gateway authorizer.
 */
export class WebhookApi extends Construct {
  readonly api: apigwv2.HttpApi;
  readonly stage: apigwv2.HttpStage;
  readonly accessLogs: logs.LogGroup;

  constructor(scope: Construct, id: string, props: WebhookApiProps) {
    super(scope, id);
    if (!Number.isInteger(props.rateLimit) || props.rateLimit < 1) {
      throw new Error(`WebhookApi: rateLimit must be a positive integer (got ${props.rateLimit}).`);
    }
    if (!Number.isInteger(props.burstLimit) || props.burstLimit < props.rateLimit) {
      throw new Error(
        `WebhookApi: burstLimit (${props.burstLimit}) must be an integer of at least rateLimit (${props.rateLimit}).`,
      );
    }

    this.api = new apigwv2.HttpApi(this, 'Api', {
      description: 'Skywatch cart-customer webhook',
      createDefaultStage: false,
    });
    this.api.addRoutes({
      path: WEBHOOK_PATH,
      methods: [apigwv2.HttpMethod.POST],
      integration: new integrations.HttpLambdaIntegration('CartCustomer', props.handler),
    });
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'The shop cannot sign AWS requests; every request is authenticated in the function by an HMAC-SHA256 signature over a timestamp and the raw body, with replays refused.',
    });

    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.stage = new apigwv2.HttpStage(this, 'Stage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: props.rateLimit, burstLimit: props.burstLimit },
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(this.accessLogs),
        format: ACCESS_LOG_FORMAT,
      },
    });
  }

  /** The URL the shop posts to. */
  get url(): string {
    return `${this.api.apiEndpoint}${WEBHOOK_PATH}`;
  }
}
