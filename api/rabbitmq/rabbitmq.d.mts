/** Types of rabbitmq.mjs for TypeScript callers (the API's broker tests, the e2e production project). */
export interface RabbitNodePorts {
  mqttPort: number;
  wsPort: number;
  managementPort: number;
  distPort: number;
}
export interface LocalRabbitCluster {
  nodeNames: string[];
  mqttUrls: string[];
  wsUrls: string[];
  managementUrls: string[];
  running(i: number): boolean;
  start(i: number): Promise<void>;
  /** SIGKILL to the node's process group. */
  kill(i: number): Promise<void>;
  stop(i: number): Promise<void>;
  /** Starts the nodes not running after the whole cluster was lost, staggered up to their wait for each other. */
  startAll(): Promise<void>;
  stopAll(): Promise<void>;
  log(i: number): string;
}
export function startRabbitCluster(options: {
  dir: string;
  name?: string;
  epmdPort: number;
  authUrl: string;
  /** The API's BROKER_AUTH_SECRET, written into the nodes' auth_http URLs. */
  authSecret: string;
  nodes: RabbitNodePorts[];
  /** A node that exits unasked is started again after a second (docker's restart policy). */
  supervise?: boolean;
}): Promise<LocalRabbitCluster>;
