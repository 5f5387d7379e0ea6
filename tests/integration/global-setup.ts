// Placeholder so the integration project runs; the lead replaces it with the real global setup.
export default async function setup() {}
