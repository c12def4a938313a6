import { buildApp } from '../lib/portal-app';

// `npx cdk synth|deploy` runs this (cdk.json); context comes from cdk.json and `-c key=value`.
buildApp().app.synth();
