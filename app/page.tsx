export default function Home() {
  return (
    <main className="mx-auto max-w-page px-4 py-10">
      <h1 className="text-2xl font-semibold">Lantern</h1>
    </main>
  );
}
